// An acquire whose reply never comes (Redis paused with SIGSTOP past --redis-timeout) may still run
// once Redis resumes. dlock gives up with 69, but first gives back the hold id it asked for (a
// no-op if the acquire never ran) and leaves the queue, so the name is not held for a whole TTL
// by a process that is gone.

#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

// SIGSTOPs the server for its lifetime; SIGCONT on destruction (also when a check fails).
class Paused {
  public:
    explicit Paused(const RedisServer& server) : pid_(server.pid()) { ::kill(pid_, SIGSTOP); }
    ~Paused() { resume(); }
    void resume() {
        if (pid_ > 0)
            ::kill(pid_, SIGCONT);
        pid_ = -1;
    }

  private:
    pid_t pid_;
};

} // namespace

TEST_CASE("an acquire that timed out against a paused Redis leaves no lease behind",
          "[e2e][dropped][paused]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const bool waiting = GENERATE(false, true);
    std::vector<std::string> args{"--redis-timeout", "500ms", "-v", "run", "--ttl", "60s"};
    if (waiting)
        args.insert(args.end(), {"-w", "1s"});
    args.insert(args.end(), {"job", "--", "touch", dir / "ran"});
    INFO((waiting ? "-w 1s" : "no wait"));
    // Redis caches the scripts (a paused server would answer NOSCRIPT to an uncached EVALSHA,
    // which runs nothing).
    REQUIRE(run(*server, {"run", "warm-up", "--", "true"}).exit_code == 0);

    ProcessResult r;
    {
        Paused paused(*server);
        r = run(*server, args, {}, 20s);
    }
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 69);
    CHECK_FALSE(file_exists(dir / "ran"));
    CHECK(r.err.find("in case it ran") != std::string::npos);
    // Let the resumed server work through what the paused one had queued.
    std::this_thread::sleep_for(1s);
    // The acquire did run after the pause (it drew a fencing token)...
    CHECK(exists(*server, key("job", "fence")));
    // ...and the hold it took was given back at once, not after the 60 s lease.
    CHECK_FALSE(exists(*server, key("job")));
    CHECK(server->cmd({"ZCARD", key("job", "queue")}).integer() == 0);
    CHECK(run(*server, {"run", "job", "--", "true"}).exit_code == 0);
}
