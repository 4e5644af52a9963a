#ifndef COPENSSL_H
#define COPENSSL_H

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>

#endif
