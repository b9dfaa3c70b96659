#include "redis/transport/socket.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <string>

using namespace dlock;
using namespace dlock::redis;

TEST_CASE("an errno says what kind of I/O failure it is", "[transport]") {
    CHECK(io_failure_of(ECONNREFUSED) == IoFailure::refused);
    CHECK(io_failure_of(ENOENT) == IoFailure::refused); // no unix socket there
    CHECK(io_failure_of(ECONNRESET) == IoFailure::reset);
    CHECK(io_failure_of(EPIPE) == IoFailure::reset);
    // The kernel giving up is no deadline of ours.
    CHECK(io_failure_of(ETIMEDOUT) == IoFailure::other);
    CHECK(io_failure_of(EHOSTUNREACH) == IoFailure::other);

    const Error error = errno_failure(ECONNREFUSED).value();
    CHECK(error.io == IoFailure::refused);
    CHECK(error.message == std::strerror(ECONNREFUSED));
    CHECK(error.transient);
    CHECK(error.fault == dlock::Fault::unavailable);
}

TEST_CASE("connecting to nothing is refused, typed", "[transport]") {
    Endpoint nowhere;
    nowhere.unix_path = "/nonexistent/dlock-test.sock";
    auto fd = connect_socket(nowhere, Millis(500));
    REQUIRE_FALSE(fd);
    CHECK(fd.error().io == IoFailure::refused);
    CHECK(fd.error().transient);
}
