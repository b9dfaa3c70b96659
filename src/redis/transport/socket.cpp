#include "redis/transport/socket.hpp"

#include "util/static_glibc.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

// Closes the socket unless released.
class SocketGuard {
  public:
    explicit SocketGuard(int fd) : fd_(fd) {}
    ~SocketGuard() {
        if (fd_ >= 0)
            close(fd_);
    }
    SocketGuard(const SocketGuard&) = delete;
    SocketGuard& operator=(const SocketGuard&) = delete;
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

// Connects the non-blocking socket `fd` to `addr`, waiting until `deadline`.
Result<void> connect_until(int fd, const sockaddr* addr, socklen_t len, Clock::time_point deadline,
                           Millis timeout) {
    if (connect(fd, addr, len) == 0)
        return {};
    if (errno != EINPROGRESS && errno != EAGAIN && errno != EINTR)
        return errno_failure(errno);
    pollfd pfd{fd, POLLOUT, 0};
    for (;;) {
        const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now()).count();
        if (left <= 0)
            return io_fail(IoFailure::timeout,
                           fmt::format("connect timed out after {}", format_duration(timeout)));
        const int ready = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left, 60'000)));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return errno_failure(errno);
        if (ready > 0)
            break;
    }
    int err = 0;
    socklen_t err_len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_len) != 0)
        err = errno;
    if (err != 0)
        return errno_failure(err);
    return {};
}

Result<int> open_connected(int family, const sockaddr* addr, socklen_t len,
                           Clock::time_point deadline, Millis timeout) {
    const int raw = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (raw < 0)
        return io_fail(IoFailure::other,
                       fmt::format("cannot create a socket: {}", strerror(errno)));
    SocketGuard owned(raw);
    TRY(connect_until(raw, addr, len, deadline, timeout));
    if (family != AF_UNIX) {
        int one = 1;
        // Commands are small and each waits for its reply: never delay them.
        (void)setsockopt(raw, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        // A waiter can sit in BLPOP on an idle connection; keepalive finds a vanished server.
        (void)setsockopt(raw, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
        int idle = 15;
        (void)setsockopt(raw, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    }
    return owned.release();
}

Result<int> connect_unix(const std::string& path, Clock::time_point deadline, Millis timeout) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path)
        return fail(Fault::bad_input, fmt::format("the unix socket path {} is too long (at most "
                                                  "{} bytes)",
                                                  path, sizeof addr.sun_path - 1));
    std::memcpy(addr.sun_path, path.data(), path.size());
    return open_connected(AF_UNIX, reinterpret_cast<const sockaddr*>(&addr), sizeof addr, deadline,
                          timeout);
}

Result<int> connect_tcp(const std::string& host, int port, Clock::time_point deadline,
                        Millis timeout) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    if (is_ip_literal(host)) {
        hints.ai_flags |= AI_NUMERICHOST; // no NSS at all
    } else if (is_static_build() && !unsafe_host_source().empty()) {
        // Only a name learned while running gets here (a Cluster or the sentinels announcing
        // host names): one in --redis makes the static build hand over before it starts.
        return fail(Fault::unavailable,
                    fmt::format("the static dlock cannot look up host names here: the hosts line "
                                "of /etc/nsswitch.conf uses '{}' (give IP addresses, or run "
                                "dlock-dynamic)",
                                unsafe_host_source()));
    }
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
        return rc == EAI_SYSTEM ? errno_failure(errno)
                                : io_fail(IoFailure::other, gai_strerror(rc));
    std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> addresses(found, freeaddrinfo);
    Result<int> last = io_fail(IoFailure::other, "no address");
    for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
        last = open_connected(a->ai_family, a->ai_addr, a->ai_addrlen, deadline, timeout);
        if (last || Clock::now() >= deadline)
            break;
    }
    return last;
}

} // namespace

IoFailure io_failure_of(int error_number) {
    // ETIMEDOUT is the kernel giving up (retransmissions, keepalive), not a deadline of ours:
    // `other`, as IoFailure::timeout is a deadline passing.
    switch (error_number) {
    case ECONNREFUSED:
    case ENOENT: // no unix socket at that path
        return IoFailure::refused;
    case ECONNRESET:
    case ECONNABORTED:
    case EPIPE:
        return IoFailure::reset;
    default:
        return IoFailure::other;
    }
}

tl::unexpected<Error> errno_failure(int error_number) {
    return io_fail(io_failure_of(error_number), std::strerror(error_number));
}

Result<int> connect_socket(const Endpoint& endpoint, Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    return endpoint.unix_path.empty() ? connect_tcp(endpoint.host, endpoint.port, deadline, timeout)
                                      : connect_unix(endpoint.unix_path, deadline, timeout);
}

} // namespace dlock::redis
