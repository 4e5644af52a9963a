#ifndef CLIBPQ_H
#define CLIBPQ_H

#include <libpq-fe.h>

#endif
