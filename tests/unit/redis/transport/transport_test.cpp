#include "redis/transport/transport.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <fcntl.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

using namespace dlock;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

// A connected pair of non-blocking stream sockets: [0] for the transport, [1] the "server".
struct SocketPair {
    int fds[2] = {-1, -1};
    SocketPair() {
        REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) == 0);
    }
    ~SocketPair() {
        if (fds[1] >= 0)
            close(fds[1]);
    }
    void close_server() {
        close(fds[1]);
        fds[1] = -1;
    }
};

} // namespace

TEST_CASE("a plain transport writes and reads bytes", "[transport]") {
    SocketPair pair;
    auto transport = redis::plain_transport(pair.fds[0]);
    REQUIRE(transport->write_all("PING\r\n", Clock::now() + 1s));
    char got[16] = {};
    REQUIRE(read(pair.fds[1], got, sizeof got) == 6);
    CHECK(std::string(got, 6) == "PING\r\n");

    REQUIRE(write(pair.fds[1], "+PONG\r\n", 7) == 7);
    char buffer[64];
    auto n = transport->read_some(buffer, Clock::now() + 1s);
    REQUIRE(n);
    CHECK(std::string(buffer, *n) == "+PONG\r\n");
}

TEST_CASE("a read with nothing to read ends at its deadline as 'timed out'", "[transport]") {
    SocketPair pair;
    auto transport = redis::plain_transport(pair.fds[0]);
    char buffer[64];
    const auto start = Clock::now();
    auto n = transport->read_some(buffer, start + 150ms);
    const auto waited = Clock::now() - start;
    REQUIRE_FALSE(n);
    CHECK(n.error().message == "timed out");
    CHECK(n.error().transient);
    CHECK(waited >= 140ms);
    CHECK(waited < 2s);
}

TEST_CASE("a write the peer never drains ends at its deadline", "[transport]") {
    SocketPair pair;
    auto transport = redis::plain_transport(pair.fds[0]);
    const std::string big(16 * 1024 * 1024, 'x'); // more than any socket buffer
    auto written = transport->write_all(big, Clock::now() + 150ms);
    REQUIRE_FALSE(written);
    CHECK(written.error().message == "timed out");
}

TEST_CASE("the server closing the connection is an error, not a SIGPIPE", "[transport]") {
    SocketPair pair;
    auto transport = redis::plain_transport(pair.fds[0]);
    pair.close_server();
    char buffer[64];
    auto n = transport->read_some(buffer, Clock::now() + 1s);
    REQUIRE_FALSE(n);
    CHECK(n.error().message == "the server closed the connection");
    // SIGPIPE is not ignored in this test process: MSG_NOSIGNAL keeps it alive.
    auto written = transport->write_all("PING\r\n", Clock::now() + 1s);
    REQUIRE_FALSE(written);
    CHECK(written.error().transient);
}

TEST_CASE("transport failures say their kind", "[transport]") {
    SocketPair pair;
    auto transport = redis::plain_transport(pair.fds[0]);
    char buffer[64];
    auto timed_out = transport->read_some(buffer, Clock::now() + 10ms);
    REQUIRE_FALSE(timed_out);
    CHECK(timed_out.error().io == IoFailure::timeout);
    CHECK_FALSE(timed_out.error().server);
    pair.close_server();
    auto closed = transport->read_some(buffer, Clock::now() + 1s);
    REQUIRE_FALSE(closed);
    CHECK(closed.error().io == IoFailure::closed);
    auto written = transport->write_all("PING\r\n", Clock::now() + 1s);
    REQUIRE_FALSE(written);
    CHECK(written.error().io == IoFailure::reset); // EPIPE
}
