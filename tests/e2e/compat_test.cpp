// `--compat FORMAT`: dlock shares a lock with real third-party clients (tests/interop/, installed
// by scripts/install-deps.sh): node-redisson (Redisson's scripts) for `redisson`, redis-py's Lock
// and node-redlock 4 for `setnx`. Without a client the test is skipped, except under CI.
// Assertions are on order and outcome, never on latency (bench/compat.sh measures that).

#include "e2e/acquire_script.hpp"
#include "e2e/e2e_helpers.hpp"

using namespace dlock::test;
using namespace dlock::test::e2e;

namespace {

const std::string kInterop = std::string(DLOCK_SOURCE_DIR) + "/tests/interop";
const std::string kPython = "/usr/bin/python3"; // Debian's, where python3-redis installs

bool node_client_installed(const std::string& package) {
    return file_exists(kInterop + "/node_modules/" + package + "/package.json") &&
           std::system("node --version >/dev/null 2>&1") == 0;
}

bool redis_py_installed() {
    return std::system((kPython + " -c 'import redis' >/dev/null 2>&1").c_str()) == 0;
}

// Skips the test when a client is missing, except under CI.
#define REQUIRE_CLIENT(available, what)                                                            \
    if (!(available)) {                                                                            \
        if (::dlock::test::redis_required())                                                       \
            FAIL(what " not installed, and CI is set: run scripts/install-deps.sh");               \
        WARN(what " not installed: skipping (scripts/install-deps.sh installs it)");               \
        return;                                                                                    \
    }

// `node tests/interop/SCRIPT ARGS...`
std::unique_ptr<Process> node_worker(const std::string& script, std::vector<std::string> args) {
    args.insert(args.begin(), {"node", kInterop + "/" + script});
    return std::make_unique<Process>(std::move(args), Env{}, "/usr/bin/env");
}

std::unique_ptr<Process> python_worker(std::vector<std::string> args) {
    args.insert(args.begin(), kInterop + "/redis_py_worker.py");
    return std::make_unique<Process>(std::move(args), Env{}, kPython);
}

// A shell looping `count` times over `dlock run -w 60s --compat FORMAT NAME`, each section
// logging "start dlockPID" and "end dlockPID" to `log` around a short sleep.
std::unique_ptr<Process> dlock_looper(const RedisServer& server, const std::string& format,
                                      const std::string& name, const std::string& log, int count) {
    const std::string script =
        "i=0; while [ $i -lt \"$N\" ]; do \"$DLOCK\" --redis \"$URL\" run -w 60s --compat "
        "\"$FORMAT\" \"$NAME\" -c 'echo start dlock$$ >> \"$L\"; sleep 0.05; echo end dlock$$ "
        ">> \"$L\"' || exit 9; i=$((i + 1)); done";
    return std::make_unique<Process>(std::vector<std::string>{"-c", script},
                                     Env{{"DLOCK", dlock_binary()},
                                         {"URL", server.url()},
                                         {"FORMAT", format},
                                         {"NAME", name},
                                         {"L", log},
                                         {"N", std::to_string(count)}},
                                     "/bin/sh");
}

// The first word and the holder id of each line of `log`.
std::vector<std::pair<std::string, std::string>> events(const std::string& log) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& line : lines(read_file(log))) {
        std::istringstream in(line);
        std::string word, id;
        in >> word >> id;
        out.emplace_back(word, id);
    }
    return out;
}

// Checks that the sections of `log` never overlap (every start followed by its own end before
// the next start); returns how many sections each kind of client ran (by its id's prefix).
std::map<std::string, int> check_no_overlap(const std::string& log) {
    INFO("log:\n" << read_file(log));
    std::map<std::string, int> sections;
    std::string inside;
    int overlaps = 0;
    for (const auto& [word, id] : events(log)) {
        if (word == "start") {
            overlaps += inside.empty() ? 0 : 1;
            inside = id;
        } else if (word == "end") {
            overlaps += inside == id ? 0 : 1;
            inside.clear();
            sections[id.substr(0, id.find_first_of("0123456789"))]++;
        }
    }
    CHECK(overlaps == 0);
    return sections;
}

// The index of the first line of `log` with `word` by a holder whose id starts with `who`.
long index_of(const std::string& log, const std::string& word, const std::string& who) {
    const auto all = events(log);
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].first == word && all[i].second.starts_with(who))
            return static_cast<long>(i);
    return -1;
}

bool logged(const std::string& log, const std::string& word, const std::string& who) {
    return file_exists(log) && index_of(log, word, who) >= 0;
}

// A client of `kind` ("node": node-redisson, "py": redis-py) holding `name` until the file
// `go` exists, started and waited for until it logged "held" in `log`.
std::unique_ptr<Process> holding_client(const RedisServer& server, const std::string& kind,
                                        const std::string& name, const std::string& log,
                                        const std::string& go) {
    const std::vector<std::string> args = {std::to_string(server.port()), name, "hold", log, go};
    auto holder = kind == "node" ? node_worker("redisson_worker.js", args) : python_worker(args);
    REQUIRE(eventually([&] { return logged(log, "held", kind); }, 60s));
    return holder;
}

// Waits for every worker (each must exit 0), then checks that no two sections of `log` overlapped:
// the sections per worker kind.
std::map<std::string, int> all_done(std::vector<std::unique_ptr<Process>>& workers,
                                    const std::string& log) {
    for (auto& w : workers) {
        auto r = w->wait(180s);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
    return check_no_overlap(log);
}

// A `client` ("node": node-redisson, "py": redis-py) holds NAME; `dlock run -w 120s --compat
// FORMAT NAME` waits while it does, and starts only after the client logged its release.
void check_waits_for(const RedisServer& server, const std::string& client,
                     const std::string& format, const std::string& name) {
    TempDir dir;
    const std::string log = dir / "log";
    auto holder = holding_client(server, client, name, log, dir / "go");
    auto waiter = start(
        server,
        {"run", "-w", "120s", "--compat", format, name, "-c", "echo started dlock$$ >> \"$L\""},
        {{"L", log}});
    // It waits: the lock is the client's.
    std::this_thread::sleep_for(300ms);
    CHECK(waiter->running());
    touch(dir / "go");
    CHECK(holder->wait(60s).exit_code == 0);
    auto r = waiter->wait(120s);
    INFO("stderr: " << r.err << "\nlog:\n" << read_file(log));
    CHECK(r.exit_code == 0);
    CHECK(index_of(log, "releasing", client) >= 0);
    CHECK(index_of(log, "releasing", client) < index_of(log, "started", "dlock"));
}

// Each of `refused`, and `over_quorum` given three --redis, exits 64 with one line, and nothing
// was written.
void check_refused(const RedisServer& server, const std::vector<std::vector<std::string>>& refused,
                   std::vector<std::string> over_quorum) {
    for (const auto& args : refused) {
        auto r = run(server, args);
        INFO(args[0] << " " << args[1] << " " << args[2] << " ... stderr: " << r.err);
        CHECK(r.exit_code == 64);
        CHECK(one_line(r.err));
    }
    for (int i = 0; i < 3; ++i)
        over_quorum.insert(over_quorum.begin(), {"--redis", server.url()});
    auto quorum = run_raw(over_quorum);
    INFO("stderr: " << quorum.err);
    CHECK(quorum.exit_code == 64);
    CHECK(dbsize(server) == 0);
}

} // namespace

TEST_CASE("node-redisson and dlock --compat redisson workers never overlap", "[e2e][compat]") {
    REQUIRE_CLIENT(node_client_installed("node-redisson"), "node-redisson");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "inventory-sync";
    constexpr int kWorkers = 3, kRounds = 5;
    std::vector<std::unique_ptr<Process>> workers;
    for (int i = 0; i < kWorkers; ++i) {
        workers.push_back(
            node_worker("redisson_worker.js", {std::to_string(server->port()), name, "loop", log,
                                               std::to_string(kRounds), "50"}));
        workers.push_back(dlock_looper(*server, "redisson", name, log, kRounds));
    }
    const auto sections = all_done(workers, log);
    CHECK(sections.at("node") == kWorkers * kRounds);
    CHECK(sections.at("dlock") == kWorkers * kRounds);
    CHECK_FALSE(exists(*server, name));
    // The dlock side's runs are counted under dlock's prefix.
    CHECK(hget(*server, key(name, "runs"), "ok") == std::to_string(kWorkers * kRounds));
}

TEST_CASE("a dlock --compat redisson waiter starts after a node-redisson holder releases",
          "[e2e][compat]") {
    REQUIRE_CLIENT(node_client_installed("node-redisson"), "node-redisson");
    REQUIRE_REDIS(server);
    const std::string name = "orders:{eu}.sync";
    check_waits_for(*server, "node", "redisson", name);
    CHECK_FALSE(exists(*server, name));
}

TEST_CASE("a node-redisson waiter is woken by a dlock --compat redisson release", "[e2e][compat]") {
    REQUIRE_CLIENT(node_client_installed("node-redisson"), "node-redisson");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "inventory-sync";
    // A 60 s lease: a waiter not woken by the unlock message would sleep until it expires.
    auto holder =
        start(*server,
              {"run", "--ttl", "60s", "--compat", "redisson", name, "-c",
               "echo held dlock$$ >> \"$L\"; " + kAwaitGo + "; echo releasing dlock$$ >> \"$L\""},
              {{"L", log}, {"D", dir.path()}});
    REQUIRE(eventually([&] { return logged(log, "held", "dlock"); }, 30s));
    CHECK(server->cmd({"TYPE", name}).str() == "hash");
    auto waiter =
        node_worker("redisson_worker.js", {std::to_string(server->port()), name, "wait", log});
    std::this_thread::sleep_for(500ms);
    CHECK_FALSE(logged(log, "acquired", "node"));
    touch(dir / "go");
    CHECK(holder->wait(30s).exit_code == 0);
    const auto released = Clock::now();
    auto r = waiter->wait(60s);
    INFO("stderr: " << r.err << "\nlog:\n" << read_file(log));
    CHECK(r.exit_code == 0);
    // Well inside the 60 s lease it would otherwise have slept through.
    CHECK(since(released) < 30s);
    CHECK(index_of(log, "releasing", "dlock") < index_of(log, "acquired", "node"));
}

TEST_CASE("deleting the Redisson hash under a dlock --compat redisson holder loses the lease (76)",
          "[e2e][compat]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string name = "inventory-sync";
    auto holder = start(
        *server,
        {"run", "--ttl", "3s", "--compat", "redisson", name, "-c", "touch \"$D/held\"; sleep 60"},
        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }, 30s));
    const auto fields = server->cmd({"HKEYS", name});
    REQUIRE(fields.size() == 1);
    CHECK(std::string(fields[0].str()).ends_with(":1")); // Redisson's <uuid>:<thread> shape
    server->cmd({"DEL", name});                          // what Redisson's forceUnlock does
    auto r = holder->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(hget(*server, key(name, "runs"), "lost") == "1");
}

TEST_CASE("redis-py, node-redlock and dlock --compat setnx workers never overlap",
          "[e2e][compat]") {
    REQUIRE_CLIENT(redis_py_installed(), "python3-redis");
    REQUIRE_CLIENT(node_client_installed("redlock"), "node-redlock");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "report:daily";
    const std::string port = std::to_string(server->port());
    constexpr int kWorkers = 2, kRounds = 5;
    std::vector<std::unique_ptr<Process>> workers;
    for (int i = 0; i < kWorkers; ++i) {
        workers.push_back(python_worker({port, name, "loop", log, std::to_string(kRounds), "50"}));
        workers.push_back(
            node_worker("redlock_worker.js", {port, name, log, std::to_string(kRounds), "50"}));
        workers.push_back(dlock_looper(*server, "setnx", name, log, kRounds));
    }
    const auto sections = all_done(workers, log);
    CHECK(sections.at("py") == kWorkers * kRounds);
    CHECK(sections.at("redlock") == kWorkers * kRounds);
    CHECK(sections.at("dlock") == kWorkers * kRounds);
    CHECK_FALSE(exists(*server, name));
}

TEST_CASE("a dlock --compat setnx waiter starts after a redis-py holder releases",
          "[e2e][compat]") {
    REQUIRE_CLIENT(redis_py_installed(), "python3-redis");
    REQUIRE_REDIS(server);
    check_waits_for(*server, "py", "setnx", "report:daily");
}

TEST_CASE("a --compat setnx lease whose value is replaced is lost (76)", "[e2e][compat]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    auto holder = start(*server,
                        {"run", "--ttl", "3s", "--compat", "setnx", "report:daily", "-c",
                         "touch \"$D/held\"; sleep 60"},
                        {{"D", dir.path()}});
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }, 30s));
    CHECK(server->cmd({"TYPE", "report:daily"}).str() == "string");
    server->cmd({"SET", "report:daily", "someone-else"});
    auto r = holder->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 76);
    CHECK(std::string(server->cmd({"GET", "report:daily"}).str()) == "someone-else");
}

TEST_CASE("a --compat run refused while another library holds the key exits 75", "[e2e][compat]") {
    REQUIRE_REDIS(server);
    server->cmd({"HSET", "inventory-sync", "6f1c-java:42", "1"});
    server->cmd({"PEXPIRE", "inventory-sync", "30000"});
    auto r = run(*server, {"run", "--compat", "redisson", "inventory-sync", "--", "true"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 75);
    CHECK(hget(*server, "inventory-sync", "6f1c-java:42") == "1");
    CHECK(hget(*server, key("inventory-sync", "runs"), "skipped_busy") == "1");
}

TEST_CASE("run --compat refuses what the formats cannot express with 64, before anything is sent",
          "[e2e][compat]") {
    REQUIRE_REDIS(server);
    const std::vector<std::vector<std::string>> refused = {
        {"run", "--compat", "redisson", "-s", "a", "--", "true"},
        {"run", "--compat", "setnx", "a", "b", "--", "true"},
        {"run", "--compat", "memcached", "a", "--", "true"},
        {"run", "--compat", "setnx", "bad\x01name", "--", "true"},
        {"run", "--compat", "setnx", "--once-per", "1h", "a", "--", "true"},
        {"sem", "run", "-p", "2", "--compat", "setnx", "a", "--", "true"},
    };
    check_refused(*server, refused, {"run", "--compat", "setnx", "a", "--", "true"});
}

TEST_CASE("status --compat redisson shows a node-redisson holder: field, count and lease left",
          "[e2e][compat]") {
    REQUIRE_CLIENT(node_client_installed("node-redisson"), "node-redisson");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "orders:{eu}.sync";
    auto holder = holding_client(*server, "node", name, log, dir / "go");
    const auto fields = server->cmd({"HKEYS", name});
    REQUIRE(fields.size() == 1);
    const std::string field(fields[0].str());
    auto held = run(*server, {"status", "--compat", "redisson", name});
    INFO("stdout: " << held.out << "stderr: " << held.err);
    CHECK(held.exit_code == 0);
    CHECK(held.out.starts_with(name + ": held (redisson), owner field '" + field + "'"));
    CHECK(held.out.find("reentrant count 1") != std::string::npos);
    CHECK(held.out.find(" left") != std::string::npos);
    touch(dir / "go");
    CHECK(holder->wait(60s).exit_code == 0);
    auto free = run(*server, {"status", "--compat", "redisson", name});
    INFO("stdout: " << free.out);
    CHECK(free.exit_code == 1);
    CHECK(free.out == name + ": free (no redisson lock)\n");
}

TEST_CASE("status --compat setnx shows a redis-py holder's value and lease left", "[e2e][compat]") {
    REQUIRE_CLIENT(redis_py_installed(), "python3-redis");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "report:daily";
    auto holder = holding_client(*server, "py", name, log, dir / "go");
    const std::string token(server->cmd({"GET", name}).str());
    auto held = run(*server, {"status", "--compat", "setnx", name});
    INFO("stdout: " << held.out << "stderr: " << held.err);
    CHECK(held.exit_code == 0);
    CHECK(held.out.starts_with(name + ": held (setnx), owner value '" + token + "', lease "));
    CHECK(held.out.ends_with(" left\n"));
    touch(dir / "go");
    CHECK(holder->wait(60s).exit_code == 0);
    CHECK(run(*server, {"status", "--compat", "setnx", name}).exit_code == 1);
}

TEST_CASE("status --compat shows a reentrant count, no expiry and a key of another type",
          "[e2e][compat]") {
    REQUIRE_REDIS(server);
    server->cmd({"HSET", "inventory-sync", "6f1c-java:42", "3"});
    auto reentered = run(*server, {"status", "--compat", "redisson", "inventory-sync"});
    INFO("stdout: " << reentered.out);
    CHECK(reentered.exit_code == 0);
    CHECK(reentered.out == "inventory-sync: held (redisson), owner field '6f1c-java:42', "
                           "reentrant count 3, lease no expiry\n");
    server->cmd({"RPUSH", "queue:jobs", "a"});
    auto other = run(*server, {"status", "--compat", "setnx", "queue:jobs"});
    INFO("stdout: " << other.out);
    CHECK(other.exit_code == 0);
    CHECK(other.out.starts_with("queue:jobs: a list key, not a setnx lock"));
}

TEST_CASE("status, history and release --force under --compat refuse bad input with 64",
          "[e2e][compat]") {
    REQUIRE_REDIS(server);
    const std::vector<std::vector<std::string>> refused = {
        {"status", "--compat", "memcached", "a"},
        {"status", "--compat", "setnx", "a", "b"},
        {"status", "--compat", "setnx"},
        {"status", "--compat", "setnx", "bad\x01name"},
        {"status", "--compat", "setnx", "--json", "a"},
        {"history", "--compat", "setnx", "bad\nname"},
        {"history", "--compat", "memcached", "a"},
        {"release", "--compat", "setnx", "a"},
        {"release", "--force", "--compat", "setnx", "bad\x7fname"},
        {"release", "--force", "--compat", "setnx", "--all-permits", "a"},
    };
    check_refused(*server, refused, {"status", "--compat", "setnx", "a"});
}

TEST_CASE("release --force --compat redisson breaks a node-redisson holder and wakes its waiter",
          "[e2e][compat]") {
    REQUIRE_CLIENT(node_client_installed("node-redisson"), "node-redisson");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "inventory-sync";
    auto holder = holding_client(*server, "node", name, log, dir / "go");
    auto waiter =
        node_worker("redisson_worker.js", {std::to_string(server->port()), name, "wait", log});
    std::this_thread::sleep_for(500ms);
    REQUIRE_FALSE(logged(log, "acquired", "node"));
    const auto forced = Clock::now();
    auto r = run(*server, {"release", "--force", "--compat", "redisson", name});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.starts_with(name + ": released (redisson), owner field '"));
    // The waiter was told the holder's PTTL (20-30 s, the watchdog renewing every 10 s): it
    // starts well before that only because the unlock message woke it.
    CHECK(eventually([&] { return logged(log, "acquired", "node"); }, 60s));
    CHECK(since(forced) < 15s);
    CHECK(waiter->wait(60s).exit_code == 0);
    touch(dir / "go");
    holder->wait(60s); // its own unlock finds the lock gone: how it reports that is its own
    auto history = run(*server, {"history", "--compat", "redisson", name});
    INFO("history: " << history.out);
    CHECK(history.exit_code == 0);
    CHECK(history.out.find("force") != std::string::npos);
    CHECK(history.out.find("broke a redisson client (owner ") != std::string::npos);
}

TEST_CASE("release --force --compat setnx deletes a redis-py holder's key, and only such a key",
          "[e2e][compat]") {
    REQUIRE_CLIENT(redis_py_installed(), "python3-redis");
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string log = dir / "log", name = "report:daily";
    auto holder = holding_client(*server, "py", name, log, dir / "go");
    auto r = run(*server, {"release", "--force", "--compat", "setnx", name});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(exists(*server, name));
    touch(dir / "go");
    holder->wait(60s); // redis-py's release of a lock it lost raises: its own affair
    auto again = run(*server, {"release", "--force", "--compat", "setnx", name});
    CHECK(again.exit_code == 1);
    CHECK(again.out == name + ": free (no setnx lock); nothing to release\n");
    server->cmd({"HSET", "inventory-sync", "6f1c-java:42", "1"});
    auto other = run(*server, {"release", "--force", "--compat", "setnx", "inventory-sync"});
    INFO("stdout: " << other.out);
    CHECK(other.exit_code == 1);
    CHECK(hget(*server, "inventory-sync", "6f1c-java:42") == "1");
    const auto entries = server->cmd({"XLEN", key(name, "history")});
    CHECK(entries.integer() == 1); // the one forced release, under dlock's prefix
}

TEST_CASE("history --compat shows the dlock side's runs on the other side's key", "[e2e][compat]") {
    REQUIRE_REDIS(server);
    const std::string name = "orders:{eu}.sync";
    auto r = run(*server, {"run", "--compat", "setnx", name, "--", "true"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    auto history = run(*server, {"history", "--compat", "setnx", name, "--json"});
    INFO("history: " << history.out << history.err);
    CHECK(history.exit_code == 0);
    CHECK(history.out.find("\"event\":\"acquire\"") != std::string::npos);
    CHECK(history.out.find("\"event\":\"release\"") != std::string::npos);
    CHECK(history.out.find("\"compat\":\"setnx\"") != std::string::npos);
    CHECK(run(*server, {"history", "--compat", "setnx", "other:key"}).exit_code == 1);
}

TEST_CASE("acquire --compat redisson holds the Redisson hash for a script until dlock release",
          "[e2e][compat][acquire]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string body =
        R"(out=$("$DLOCK" acquire --compat redisson inventory-sync) || exit 9; eval "$out"
"$DLOCK" status --compat redisson inventory-sync > "$D/held"
"$DLOCK" release --status 0 || exit 8
"$DLOCK" status --compat redisson inventory-sync > "$D/after"; echo "$?" >> "$D/after")";
    auto r = script(*server, dir, body)->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    const std::string held = read_file(dir / "held");
    INFO("held: " << held);
    CHECK(held.starts_with("inventory-sync: held (redisson), owner field '"));
    CHECK(held.find("reentrant count 1") != std::string::npos);
    CHECK(read_file(dir / "after") == "inventory-sync: free (no redisson lock)\n1\n");
    CHECK(hget(*server, key("inventory-sync", "runs"), "ok") == "1");
    auto history = run(*server, {"history", "--compat", "redisson", "inventory-sync", "--json"});
    CHECK(history.out.find("\"event\":\"acquire\"") != std::string::npos);
    CHECK(history.out.find("\"event\":\"release\"") != std::string::npos);
}

TEST_CASE("an acquire --compat setnx hold whose value is replaced stops the owner (76)",
          "[e2e][compat][acquire]") {
    REQUIRE_REDIS(server);
    TempDir dir;
    const std::string body =
        R"(out=$("$DLOCK" acquire --ttl 3s --compat setnx report:daily) || exit 9; eval "$out"
touch "$D/held"; sleep 60)";
    auto shell = script(*server, dir, body);
    REQUIRE(eventually([&] { return file_exists(dir / "held"); }, 30s));
    CHECK(server->cmd({"TYPE", "report:daily"}).str() == "string");
    server->cmd({"SET", "report:daily", "someone-else"});
    auto r = shell->wait(60s);
    INFO("stderr: " << r.err);
    CHECK(r.term_signal == SIGTERM); // the keeper's --lost-signal, before the expiry
    CHECK(std::string(server->cmd({"GET", "report:daily"}).str()) == "someone-else");
    CHECK(
        eventually([&] { return hget(*server, key("report:daily", "runs"), "lost") == "1"; }, 30s));
}
