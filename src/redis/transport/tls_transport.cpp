#include "redis/transport/tls_transport.hpp"

#include "redis/transport/openssl_api.hpp"
#include "redis/transport/socket.hpp"
#include "redis/transport/tls_context.hpp"
#include "util/log.hpp"
#include "util/static_glibc.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <poll.h>
#include <string>
#include <unistd.h>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

// Verification results that mean "this CA is not trusted here": worth naming --tls-ca-file.
bool untrusted_issuer(long result) {
    switch (result) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        return true;
    default:
        return false;
    }
}

// Alerts a server sends when it does not accept the client certificate it was given.
bool client_certificate_refused(int reason) {
    switch (reason) {
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED:
    case SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE:
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
    case SSL_R_TLSV1_ALERT_ACCESS_DENIED:
    case SSL_R_TLSV1_ALERT_DECRYPT_ERROR:
        return true;
    default:
        return false;
    }
}

// A TLS session over a connected, non-blocking socket. OpenSSL writes with write(2), so a
// server that went away would raise SIGPIPE: dlock ignores it (cli/main.cpp).
class TlsTransport final : public Transport {
  public:
    TlsTransport(const OpenSslApi& api, SSL* ssl, int fd, const ConnectOptions& options,
                 std::string name)
        : api_(api), ssl_(ssl), fd_(fd), peer_(peer_name(options)), name_(std::move(name)),
          client_certificate_(!options.tls.cert_file.empty()),
          connect_timeout_(options.connect_timeout) {}

    ~TlsTransport() override {
        if (usable_) {
            // Best effort: a close_notify if the socket takes it now; the server's is not awaited.
            api_.ERR_clear_error();
            (void)api_.SSL_shutdown(ssl_);
        }
        api_.SSL_free(ssl_);
        ::close(fd_);
        api_.ERR_clear_error(); // nothing of this connection is left in the thread's queue
    }
    TlsTransport(const TlsTransport&) = delete;
    TlsTransport& operator=(const TlsTransport&) = delete;

    Result<void> handshake(Deadline deadline) {
        for (;;) {
            api_.ERR_clear_error();
            const int rc = api_.SSL_connect(ssl_);
            if (rc == 1) {
                usable_ = true;
                return {};
            }
            TRY(await(rc, Step::handshake, deadline));
        }
    }

    Result<void> write_all(std::string_view data, Deadline deadline) override {
        while (!data.empty()) {
            // After WANT_*, OpenSSL requires the same buffer again: `data` only moves on success.
            const int len = static_cast<int>(std::min<size_t>(data.size(), INT_MAX));
            api_.ERR_clear_error();
            const int n = api_.SSL_write(ssl_, data.data(), len);
            if (n > 0)
                data.remove_prefix(static_cast<size_t>(n));
            else
                TRY(await(n, Step::write, deadline));
        }
        return {};
    }

    Result<size_t> read_some(std::span<char> buffer, Deadline deadline) override {
        // SSL_read first, poll() only when it wants more: bytes OpenSSL has already decrypted
        // (a record larger than `buffer`, several replies in one record) are not on the socket.
        const int len = static_cast<int>(std::min<size_t>(buffer.size(), INT_MAX));
        for (;;) {
            api_.ERR_clear_error();
            const int n = api_.SSL_read(ssl_, buffer.data(), len);
            if (n > 0) {
                replied_ = true;
                return static_cast<size_t>(n);
            }
            TRY(await(n, Step::read, deadline));
        }
    }

    int fd() const override { return fd_; }
    bool buffered() const override { return api_.SSL_pending(ssl_) > 0; }

  private:
    enum class Step { handshake, read, write };

    // After a call returned `rc` <= 0: waits for what OpenSSL needs (WANT_READ/WANT_WRITE) until
    // `deadline`, or gives the error that ended the call.
    Result<void> await(int rc, Step step, Deadline deadline) {
        const int saved_errno = errno;
        const int code = api_.SSL_get_error(ssl_, rc);
        if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE) {
            auto ready = wait_for(fd_, code == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline);
            if (!ready && step == Step::handshake)
                return io_fail(IoFailure::timeout,
                               fmt::format("TLS handshake timed out after {} (is the port a TLS "
                                           "port? redis:// is for plain ones)",
                                           format_duration(connect_timeout_)));
            return ready;
        }
        usable_ = false; // after SSL_ERROR_SSL or _SYSCALL, no more I/O, not even a shutdown
        if (step == Step::write && code == SSL_ERROR_SYSCALL)
            if (auto alert = alert_received())
                return tl::unexpected(*alert);
        return tl::unexpected(failure(code, saved_errno, step));
    }

    // A server that refuses the client (TLS 1.3: no client certificate, or one it does not
    // accept) sends an alert once the handshake is over, and closes; our next write then fails
    // with a reset, the alert unread. Reading it names the cause.
    std::optional<Error> alert_received() {
        api_.ERR_clear_error();
        char byte;
        const int n = api_.SSL_read(ssl_, &byte, 1);
        if (n > 0 || api_.SSL_get_error(ssl_, n) != SSL_ERROR_SSL) {
            api_.ERR_clear_error();
            return std::nullopt;
        }
        return failure(SSL_ERROR_SSL, 0, Step::read);
    }

    // A TLS 1.3 server that wants a client certificate says so in an alert after the handshake,
    // then closes. If the alert is lost in the race with our first command (the server's close
    // turns into a reset that discards it), all that is left is the closed connection: name the
    // likely cause, still as a transient error, since a dropped connection looks the same.
    std::string closed_after_handshake(std::string what) const {
        if (client_certificate_ || replied_)
            return what;
        return what + " right after the TLS handshake (if the server requires a client "
                      "certificate, give --tls-cert/--tls-key)";
    }

    Error failure(int code, int saved_errno, Step step) {
        unsigned long first = 0; // the cause; later entries only say where it surfaced
        for (unsigned long e = api_.ERR_get_error(); e != 0; e = api_.ERR_get_error())
            if (first == 0)
                first = e;
        const bool ssl_lib = first != 0 && ERR_GET_LIB(first) == ERR_LIB_SSL;
        const int reason = ssl_lib ? ERR_GET_REASON(first) : 0;
        const bool eof = code == SSL_ERROR_ZERO_RETURN ||
                         (code == SSL_ERROR_SYSCALL && first == 0 && saved_errno == 0) ||
                         reason == SSL_R_UNEXPECTED_EOF_WHILE_READING;
        if (eof)
            return transient(IoFailure::closed,
                             step == Step::handshake
                                 ? "the server closed the connection during the TLS handshake"
                                 : closed_after_handshake("the server closed the connection"));
        if (code == SSL_ERROR_SYSCALL && first == 0 && step != Step::handshake &&
            (saved_errno == ECONNRESET || saved_errno == EPIPE))
            return transient(IoFailure::reset, closed_after_handshake(std::strerror(saved_errno)));
        if (code == SSL_ERROR_SYSCALL && first == 0)
            return transient(io_failure_of(saved_errno),
                             step == Step::handshake
                                 ? fmt::format("TLS handshake: {}", std::strerror(saved_errno))
                                 : std::string(std::strerror(saved_errno)));
        if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED)
            return refused(verify_failure());
        if (reason == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED)
            // TLS 1.3 servers check the client certificate after the client's handshake is
            // done: the alert arrives on the first read.
            return refused("the server requires a client certificate (--tls-cert/--tls-key)");
        const std::string text = first == 0 ? "unknown TLS error" : openssl_reason(api_, first);
        if (client_certificate_ && client_certificate_refused(reason))
            return refused(fmt::format("the server refused the client certificate ({})", text));
        if (!client_certificate_ && reason == SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE)
            return refused(fmt::format("{} (the server may require a client certificate: "
                                       "--tls-cert/--tls-key)",
                                       text));
        if (reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG)
            return refused(fmt::format("{}: the server does not speak TLS on this port (redis:// "
                                       "is for plain ones)",
                                       text));
        if (step == Step::handshake)
            return refused(text);
        // A broken session: a new one may do.
        return transient(IoFailure::tls, fmt::format("TLS: {}", text));
    }

    std::string verify_failure() const {
        const long result = api_.SSL_get_verify_result(ssl_);
        if (result == X509_V_ERR_HOSTNAME_MISMATCH || result == X509_V_ERR_IP_ADDRESS_MISMATCH)
            return fmt::format("{}: the server's certificate is not valid for {} "
                               "(--tls-server-name names the one to expect)",
                               result == X509_V_ERR_HOSTNAME_MISMATCH ? "hostname mismatch"
                                                                      : "IP address mismatch",
                               name_);
        return fmt::format(
            "certificate verify failed ({}){}", api_.X509_verify_cert_error_string(result),
            untrusted_issuer(result) ? ": --tls-ca-file names the CA that signed it" : "");
    }

    // The server, or dlock, will not have this session: retrying will not help.
    Error refused(std::string cause) const {
        Error error{Fault::unavailable,
                    fmt::format("TLS handshake with {} failed: {}", peer_, cause), false, true};
        error.io = IoFailure::tls;
        return error;
    }

    static Error transient(IoFailure kind, std::string reason) {
        return io_fail(kind, std::move(reason)).value();
    }

    const OpenSslApi& api_;
    SSL* ssl_;
    int fd_;
    std::string peer_; // "Redis at host:port"
    std::string name_; // the name verified
    bool client_certificate_;
    Millis connect_timeout_;
    bool usable_ = false;  // handshake done, no fatal error: a close_notify may be sent
    bool replied_ = false; // the server has sent something since the handshake
};

// Names the server and checks its certificate for it: SNI for a DNS name (not allowed for an
// address), and the host name or IP address the certificate must carry.
Result<void> set_server_name(const OpenSslApi& api, SSL* ssl, const std::string& name,
                             bool verify) {
    const bool ip = is_ip_literal(name);
    if (!ip && api.SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                            const_cast<char*>(name.c_str())) != 1)
        return usage_error(fmt::format("invalid TLS server name '{}'", name));
    if (!verify)
        return {};
    X509_VERIFY_PARAM* param = api.SSL_get0_param(ssl);
    api.X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    const int set = ip ? api.X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                       : api.X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
    if (set != 1)
        return usage_error(fmt::format("invalid TLS server name '{}'", name));
    return {};
}

} // namespace

Result<std::unique_ptr<Transport>> open_tls_transport(const ConnectOptions& options,
                                                      Deadline deadline) {
    const auto start = Clock::now();
    // The library and the files first: their errors come before anything is sent.
    TRY_ASSIGN(const OpenSslApi* api, openssl_api());
    TRY_ASSIGN(SSL_CTX * ctx, tls_context(*api, options.tls));
    const std::string& name =
        options.tls.server_name.empty() ? options.endpoint.host : options.tls.server_name;

    const auto left = std::chrono::ceil<Millis>(deadline - Clock::now());
    TRY_ASSIGN(const int fd, connect_socket(options.endpoint, std::max(left, Millis(1))));
    api->ERR_clear_error();
    SSL* ssl = api->SSL_new(ctx);
    if (ssl == nullptr || api->SSL_set_fd(ssl, fd) != 1) {
        if (ssl != nullptr)
            api->SSL_free(ssl);
        ::close(fd);
        api->ERR_clear_error();
        return fail(Fault::internal, "cannot create a TLS session");
    }
    auto transport = std::make_unique<TlsTransport>(*api, ssl, fd, options, name);
    TRY(set_server_name(*api, ssl, name, !options.tls.insecure));
    TRY(transport->handshake(deadline));
    log::debug("TLS: {} with {} in {} ms", api->SSL_get_version(ssl), options.endpoint.display(),
               std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
    return std::unique_ptr<Transport>(std::move(transport));
}

} // namespace dlock::redis
