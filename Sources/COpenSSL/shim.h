#ifndef COPENSSL_H
#define COPENSSL_H

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

/* Macros Swift cannot import, as functions (used by BmobRealtime's TLS client). */

/* Sends the server name (SNI) in the ClientHello. */
static inline long COpenSSL_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

/* The oldest protocol version the context negotiates. */
static inline int COpenSSL_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

#endif
