#pragma once

// The part of OpenSSL 3 that TLS connections use, loaded at run time. dlock is not linked with
// libssl: most users never use TLS, and linking it would cost every `dlock run` ~1.5 ms and
// ~150 page faults at start-up (docs/BENCHMARKS.md). The headers give the functions' types, so
// a pointer of the wrong type does not compile; only this file pair and tls_*.cpp include them.

#include "util/error.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

namespace dlock::redis {

// Every function used, once: X(name).
#define DLOCK_OPENSSL_FUNCTIONS(X)                                                                 \
    X(TLS_client_method)                                                                           \
    X(SSL_CTX_new)                                                                                 \
    X(SSL_CTX_free)                                                                                \
    X(SSL_CTX_ctrl)                                                                                \
    X(SSL_CTX_set_verify)                                                                          \
    X(SSL_CTX_set_default_passwd_cb)                                                               \
    X(SSL_CTX_load_verify_locations)                                                               \
    X(SSL_CTX_set_default_verify_paths)                                                            \
    X(SSL_CTX_use_certificate_chain_file)                                                          \
    X(SSL_CTX_use_PrivateKey_file)                                                                 \
    X(SSL_CTX_check_private_key)                                                                   \
    X(SSL_new)                                                                                     \
    X(SSL_free)                                                                                    \
    X(SSL_set_fd)                                                                                  \
    X(SSL_ctrl)                                                                                    \
    X(SSL_get0_param)                                                                              \
    X(SSL_connect)                                                                                 \
    X(SSL_read)                                                                                    \
    X(SSL_write)                                                                                   \
    X(SSL_pending)                                                                                 \
    X(SSL_shutdown)                                                                                \
    X(SSL_get_error)                                                                               \
    X(SSL_get_verify_result)                                                                       \
    X(SSL_get_version)                                                                             \
    X(X509_VERIFY_PARAM_set1_host)                                                                 \
    X(X509_VERIFY_PARAM_set1_ip_asc)                                                               \
    X(X509_VERIFY_PARAM_set_hostflags)                                                             \
    X(X509_verify_cert_error_string)                                                               \
    X(ERR_get_error)                                                                               \
    X(ERR_clear_error)                                                                             \
    X(ERR_reason_error_string)                                                                     \
    X(ERR_error_string_n)

// The functions, named as in OpenSSL: `api.SSL_read(...)`.
struct OpenSslApi {
#define DLOCK_OPENSSL_MEMBER(name) decltype(&::name) name = nullptr;
    DLOCK_OPENSSL_FUNCTIONS(DLOCK_OPENSSL_MEMBER)
#undef DLOCK_OPENSSL_MEMBER
};

// Loads libssl.so.3 (libcrypto comes with it) on first use, once per process, and never unloads
// it. Not installed, or lacking a function: an `unavailable` error (exit 69) saying so.
Result<const OpenSslApi*> openssl_api();

// The reason of an OpenSSL error code, e.g. "certificate verify failed".
std::string openssl_reason(const OpenSslApi& api, unsigned long code);

} // namespace dlock::redis
