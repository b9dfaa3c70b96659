// A Redis at its maxclients: the refusal is named the same way by every subcommand (exit 69,
// never 70 nor a topology message), a waiting run takes a slot freed within its wait, a queue
// three times longer than the server's slots drains, one job at a time, and a holder whose
// watchdog is refused a connection keeps its lease.

#include "e2e/e2e_helpers.hpp"

#include <cstdio>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

constexpr std::string_view kRefused =
    " refused the connection: max number of clients reached (its maxclients)\n";

std::unique_ptr<RedisServer> start_with_maxclients(int limit) {
    return RedisServer::start([limit](int) {
        return std::vector<std::string>{"--maxclients", std::to_string(limit)};
    });
}

// The connections that keep a server at its limit, raw sockets on its unix socket.
class Fillers {
  public:
    // Connects until the server refuses one: every slot is then taken.
    explicit Fillers(const RedisServer& server) : path_(server.socket_path()) {
        for (int i = 0; i < 1000; ++i)
            if (!connect_one())
                return;
        FAIL("the server never refused a connection");
    }
    ~Fillers() {
        for (int fd : fds_)
            ::close(fd);
    }
    Fillers(const Fillers&) = delete;
    Fillers& operator=(const Fillers&) = delete;

    // Gives one slot back.
    void free_one() {
        REQUIRE_FALSE(fds_.empty());
        ::close(fds_.back());
        fds_.pop_back();
    }

  private:
    // One more connection, kept when the server answers it (PING) with PONG.
    bool connect_one() {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(fd >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path_.c_str());
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        const std::string ping = "PING\r\n";
        char reply[128] = "";
        const bool sent =
            ::send(fd, ping.data(), ping.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(ping.size());
        const ssize_t n = sent ? ::recv(fd, reply, sizeof reply - 1, 0) : -1;
        if (n > 0 && std::string_view(reply, static_cast<size_t>(n)) == "+PONG\r\n") {
            fds_.push_back(fd);
            return true;
        }
        ::close(fd);
        return false;
    }

    std::string path_;
    std::vector<int> fds_;
};

// The one line of a refusal for the client limit by the server at `url`'s address.
bool names_the_limit(const std::string& err) {
    return one_line(err) && err.starts_with("dlock: Redis at ") && err.ends_with(kRefused) &&
           err.find("CLUSTER") == std::string::npos && err.find("script") == std::string::npos;
}

} // namespace

TEST_CASE("a server at its maxclients is named, with exit 69, by every subcommand",
          "[e2e][maxclients]") {
    auto server = start_with_maxclients(4);
    DLOCK_SKIP_UNLESS_STARTED(server, "redis-server", "Redis");
    Fillers full(*server);

    for (const std::string& url : {server->url(), server->tcp_url()}) {
        INFO("url: " << url);
        auto r = run_on(url, {"run", "-n", "job", "--", "true"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(names_the_limit(r.err));
    }
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"status"},
                                               {"history", "job"},
                                               {"bench", "--cycles", "5", "--handovers", "2"},
                                               {"acquire", "-n", "job"},
                                               {"sem", "status", "pool"}}) {
        auto r = run(*server, args);
        INFO(args[0] << " stderr: " << r.err);
        CHECK(r.exit_code == 69);
        CHECK(names_the_limit(r.err));
    }
    auto check = run(*server, {"check", "--max-age", "1h", "job"});
    INFO("check: " << check.out << check.err);
    CHECK(check.exit_code == 3); // UNKNOWN
    CHECK((check.out + check.err).find(std::string(kRefused.substr(1, 40))) != std::string::npos);

    auto metrics = run(*server, {"metrics"});
    INFO("metrics stderr: " << metrics.err);
    CHECK(metrics.exit_code == 69);
    CHECK(metrics.out.find("dlock_up 0") != std::string::npos);
    CHECK(names_the_limit(metrics.err));
}

TEST_CASE("a run that gets no slot within its wait exits 69 naming the limit, and one that "
          "gets a slot runs",
          "[e2e][maxclients]") {
    auto server = start_with_maxclients(4);
    DLOCK_SKIP_UNLESS_STARTED(server, "redis-server", "Redis");
    TempDir dir;
    Fillers full(*server);

    auto r = run(*server, {"run", "-w", "1s", "job", "--", "touch", dir / "never"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK(names_the_limit(r.err));
    CHECK(r.elapsed >= 900ms); // it retried for its whole wait
    CHECK_FALSE(file_exists(dir / "never"));

    auto waiting = start(*server, {"run", "-w", "2m", "job", "--", "touch", dir / "ran"});
    std::this_thread::sleep_for(500ms); // refused, retrying
    CHECK_FALSE(file_exists(dir / "ran"));
    full.free_one();
    auto done = waiting->wait(120s);
    INFO("stderr: " << done.err);
    CHECK(done.exit_code == 0);
    CHECK(done.err.empty());
    CHECK(file_exists(dir / "ran"));
}

TEST_CASE("a queue three times longer than the server's slots drains, one job at a time",
          "[e2e][maxclients]") {
    auto server = start_with_maxclients(20);
    DLOCK_SKIP_UNLESS_STARTED(server, "redis-server", "Redis");
    TempDir dir;
    const std::string log = dir / "log";
    // Each job writes its start and end; another job inside it would show between them.
    const std::string job = "echo start >> " + log + "; echo end >> " + log;
    std::vector<std::unique_ptr<Process>> herd;
    for (int i = 0; i < 60; ++i)
        herd.push_back(start(*server, {"run", "-w", "5m", "herd", "--", "sh", "-c", job}));
    int ok = 0;
    for (auto& p : herd) {
        auto r = p->wait(330s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        ok += r.exit_code == 0 ? 1 : 0;
    }
    CHECK(ok == 60);
    const auto written = lines(read_file(log));
    REQUIRE(written.size() == 120);
    for (size_t i = 0; i < written.size(); ++i)
        CHECK(written[i] == (i % 2 == 0 ? "start" : "end"));
}

TEST_CASE("a holder keeps renewing its lease while the server is at its maxclients",
          "[e2e][maxclients]") {
    auto server = start_with_maxclients(6);
    DLOCK_SKIP_UNLESS_STARTED(server, "redis-server", "Redis");
    TempDir dir;
    // Renewed every second: its watchdog's own connection is refused, every slot being taken.
    auto holder = start(*server, {"run", "--ttl", "3s", "job", "--", "sh", "-c",
                                  "touch " + dir / "started" + "; sleep 5; touch " + dir / "done"});
    REQUIRE(eventually([&] { return file_exists(dir / "started"); }, 30s));
    Fillers full(*server);
    auto r = holder->wait(120s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(file_exists(dir / "done"));
}
