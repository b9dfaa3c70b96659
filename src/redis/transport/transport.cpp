#include "redis/transport/transport.hpp"

#include "redis/transport/socket.hpp"
#include "redis/transport/tls_transport.hpp"
#include "util/log.hpp"
#include "util/while_waiting.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

// The socket as a byte stream, no encryption.
class PlainTransport final : public Transport {
  public:
    explicit PlainTransport(int fd) : fd_(fd) {}
    ~PlainTransport() override { ::close(fd_); }
    PlainTransport(const PlainTransport&) = delete;
    PlainTransport& operator=(const PlainTransport&) = delete;

    Result<void> write_all(std::string_view data, Deadline deadline) override {
        while (!data.empty()) {
            // MSG_NOSIGNAL: a closed connection is an error here, not a SIGPIPE.
            const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n > 0) {
                data.remove_prefix(static_cast<size_t>(n));
            } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                TRY(wait_for(fd_, POLLOUT, deadline));
            } else if (n < 0 && errno != EINTR) {
                return errno_failure(errno);
            }
        }
        return {};
    }

    Result<size_t> read_some(std::span<char> buffer, Deadline deadline) override {
        for (;;) {
            const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), 0);
            if (n > 0)
                return static_cast<size_t>(n);
            if (n == 0)
                return io_fail(IoFailure::closed, "the server closed the connection");
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                TRY(wait_for(fd_, POLLIN, deadline));
            else if (errno != EINTR)
                return errno_failure(errno);
        }
    }

    int fd() const override { return fd_; }

  private:
    int fd_;
};

} // namespace

Result<void> wait_for(int fd, short events, Deadline deadline) {
    if (events & POLLIN) // a reply is due: the server works on it meanwhile
        WhileWaiting::run_pending();
    pollfd pfd{fd, events, 0};
    for (;;) {
        const auto left =
            std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return io_fail(IoFailure::timeout, "timed out");
        const int ready = ::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left, 60'000)));
        if (ready > 0)
            return {}; // readable, writable, or an error the next read or write reports
        if (ready < 0 && errno != EINTR)
            return errno_failure(errno);
    }
}

std::unique_ptr<Transport> plain_transport(int fd) {
    return std::make_unique<PlainTransport>(fd);
}

Result<std::unique_ptr<Transport>> open_transport(const ConnectOptions& options) {
    if (options.endpoint.tls) {
        if (options.tls.insecure) {
            static std::once_flag warned;
            std::call_once(warned, [&] {
                log::warn("--tls-insecure: the certificate of Redis at {} is not verified; "
                          "anyone on the network path can pose as the server",
                          options.endpoint.display());
            });
        }
        return open_tls_transport(options, Clock::now() + options.connect_timeout);
    }
    TRY_ASSIGN(const int fd, connect_socket(options.endpoint, options.connect_timeout));
    return plain_transport(fd);
}

} // namespace dlock::redis
