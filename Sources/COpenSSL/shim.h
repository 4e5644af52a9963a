#ifndef COPENSSL_H
#define COPENSSL_H

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>

#endif
