#include "support/redis_cluster.hpp"

#include "redis/protocol/connection.hpp"
#include "redis/topology/cluster_slot.hpp"
#include "support/dlock_process.hpp"
#include "support/redis_process.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace dlock::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Each look at the cluster costs a connection per node: not more often than this.
constexpr auto kPoll = 20ms;

constexpr int kNodes = 2 * RedisCluster::kMasters;
// The slots of master i: an even split, as redis-cli --cluster create makes it.
constexpr std::array<std::pair<int, int>, RedisCluster::kMasters> kSlotRanges{
    {{0, 5460}, {5461, 10922}, {10923, 16383}}};

// A port nobody listens on now, at random in [20000, 32000): below the ephemeral range, where an
// outgoing connection may take a port before the node binds it.
int free_port(std::set<int>& taken) {
    static std::mt19937 rng{std::random_device{}()};
    std::uniform_int_distribution<int> pick(20000, 31999);
    for (;;) {
        const int port = pick(rng);
        if (taken.contains(port))
            continue;
        const bool free = tcp_port_free(port);
        if (free) {
            taken.insert(port);
            return port;
        }
    }
}

// One line of CLUSTER NODES: "<id> <ip:port@bus> <flags> <master id> ... <slot ranges>".
struct NodeLine {
    std::string id;
    int port = 0;
    std::string flags;
    std::string master_id;
    std::vector<std::pair<int, int>> slots; // migrations ("[slot->-id]") left out

    bool has(std::string_view flag) const {
        std::string padded = "," + flags + ",";
        return padded.find("," + std::string(flag) + ",") != std::string::npos;
    }
    bool failed() const { return has("fail") || has("fail?"); }
};

NodeLine parse_line(const std::string& line) {
    std::istringstream in(line);
    NodeLine out;
    std::string address, ping, pong, epoch, link, range;
    in >> out.id >> address >> out.flags >> out.master_id >> ping >> pong >> epoch >> link;
    const auto colon = address.rfind(':', address.find('@'));
    out.port = std::atoi(address.c_str() + colon + 1);
    while (in >> range) {
        if (range.starts_with('['))
            continue;
        const auto dash = range.find('-');
        const int first = std::atoi(range.c_str());
        out.slots.emplace_back(first,
                               dash == std::string::npos ? first : std::atoi(&range[dash + 1]));
    }
    return out;
}

std::vector<NodeLine> parse_nodes(const std::vector<std::string>& lines) {
    std::vector<NodeLine> out;
    for (const auto& line : lines)
        out.push_back(parse_line(line));
    return out;
}

// Which master serves which slots, as one node sees it: "first-last:port ..." sorted.
std::string slot_view(const std::vector<NodeLine>& nodes) {
    std::vector<std::pair<int, std::string>> ranges;
    for (const auto& node : nodes)
        if (node.has("master") && !node.failed())
            for (const auto& [first, last] : node.slots)
                ranges.emplace_back(first, std::to_string(first) + "-" + std::to_string(last) +
                                               ":" + std::to_string(node.port));
    std::sort(ranges.begin(), ranges.end());
    std::string out;
    for (const auto& range : ranges)
        out += range.second + " ";
    return out;
}

Result<redis::Reply> run_on(int port, std::span<const std::string_view> args) {
    redis::ConnectOptions options;
    options.endpoint.host = "127.0.0.1";
    options.endpoint.port = port;
    options.connect_timeout = 1000ms;
    options.command_timeout = 5000ms;
    auto conn = redis::Connection::open(options);
    if (!conn)
        return tl::unexpected(conn.error());
    return conn->command(args);
}

} // namespace

std::unique_ptr<RedisCluster> RedisCluster::start() {
    if (!redis_server_binary())
        return nullptr;
    std::unique_ptr<RedisCluster> cluster(new RedisCluster());
    char tmpl[] = "/tmp/dlock-cluster-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    cluster->dir_ = tmpl;
    std::set<int> taken;
    for (int i = 0; i < kNodes; ++i) {
        Node node;
        node.dir = cluster->dir_ + "/node" + std::to_string(i);
        std::filesystem::create_directories(node.dir);
        bool up = false;
        for (int attempt = 0; attempt < 5 && !up; ++attempt) {
            node.port = free_port(taken);
            node.bus_port = free_port(taken);
            up = cluster->launch(node);
        }
        if (!up)
            FAIL("could not start a cluster node in " << node.dir);
        cluster->ports_.push_back(node.port);
        cluster->nodes_.push_back(std::move(node));
    }
    if (!cluster->create())
        FAIL("the test cluster in " << cluster->dir_ << " did not become ready; "
                                    << "nodes: " << cluster->seeds_url());
    return cluster;
}

RedisCluster* RedisCluster::shared() {
    static std::unique_ptr<RedisCluster> cluster;
    if (cluster && (cluster->damaged_ || !cluster->wait_stable(5s)))
        cluster.reset();
    if (!cluster)
        cluster = start();
    return cluster.get();
}

bool RedisCluster::launch(Node& node) {
    static const std::string binary = *redis_server_binary();
    node.pid = fork();
    if (node.pid == 0) {
        // Gone with the test binary, even when it crashes; its output is not ours.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        const std::string port = std::to_string(node.port), bus = std::to_string(node.bus_port);
        const std::string conf = node.dir + "/nodes.conf", log = node.dir + "/redis.log";
        execl(binary.c_str(), binary.c_str(), "--port", port.c_str(), "--cluster-port", bus.c_str(),
              "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file",
              conf.c_str(), "--cluster-node-timeout", "1000", "--save", "", "--appendonly", "no",
              "--repl-diskless-sync-delay", "0", "--dir", node.dir.c_str(), "--logfile",
              log.c_str(), "--daemonize", "no", static_cast<char*>(nullptr));
        _exit(127);
    }
    const bool up = eventually(
        [&] {
            int status;
            if (waitpid(node.pid, &status, WNOHANG) == node.pid) { // died: a port was taken
                node.pid = -1;
                return true;
            }
            const std::string_view ping[] = {"PING"};
            return run_on(node.port, ping).has_value();
        },
        10s, kPoll);
    if (up && node.pid > 0)
        return true;
    if (node.pid > 0) {
        ::kill(node.pid, SIGKILL);
        waitpid(node.pid, nullptr, 0);
        node.pid = -1;
    }
    return false;
}

// As redis-cli --cluster create does, without its one-second pauses: slots to the masters,
// distinct config epochs, one MEET per node, then each replica follows its master.
bool RedisCluster::create() {
    for (int i = 0; i < kMasters; ++i)
        cmd(ports_[i], {"CLUSTER", "ADDSLOTSRANGE", std::to_string(kSlotRanges[i].first),
                        std::to_string(kSlotRanges[i].second)});
    for (int i = 0; i < kNodes; ++i)
        cmd(ports_[i], {"CLUSTER", "SET-CONFIG-EPOCH", std::to_string(i + 1)});
    for (int i = 1; i < kNodes; ++i)
        cmd(ports_[0], {"CLUSTER", "MEET", "127.0.0.1", std::to_string(nodes_[i].port),
                        std::to_string(nodes_[i].bus_port)});
    const bool met = eventually(
        [&] {
            for (int port : ports_) {
                const auto nodes = parse_nodes(nodes_lines(port));
                if (nodes.size() != kNodes ||
                    std::any_of(nodes.begin(), nodes.end(), [](const NodeLine& n) {
                        return n.has("handshake") || n.has("noaddr");
                    }))
                    return false;
            }
            return true;
        },
        15s, kPoll);
    if (!met)
        return false;
    for (int i = 0; i < kMasters; ++i) {
        const std::string master = id(ports_[i]);
        if (!eventually(
                [&] {
                    return try_cmd(ports_[kMasters + i], {"CLUSTER", "REPLICATE", master})
                        .has_value();
                },
                10s, kPoll))
            return false;
    }
    return wait_stable();
}

RedisCluster::~RedisCluster() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void RedisCluster::stop() {
    for (auto& node : nodes_)
        if (node.pid > 0)
            ::kill(node.pid, SIGTERM);
    for (auto& node : nodes_)
        if (node.pid > 0) {
            waitpid(node.pid, nullptr, 0);
            node.pid = -1;
        }
}

std::string RedisCluster::seeds_url() const {
    std::string out = "redis://";
    for (int i = 0; i < kMasters; ++i)
        out += (i ? ",127.0.0.1:" : "127.0.0.1:") + std::to_string(ports_[i]);
    return out;
}

Result<redis::Reply> RedisCluster::try_cmd(int port,
                                           std::initializer_list<std::string_view> args) const {
    return run_on(port, std::span<const std::string_view>(args.begin(), args.size()));
}

redis::Reply RedisCluster::cmd(int port, std::initializer_list<std::string_view> args) const {
    auto reply = try_cmd(port, args);
    if (!reply)
        FAIL("redis command " << *args.begin() << " on port " << port
                              << " failed: " << reply.error().message);
    return std::move(*reply);
}

std::vector<std::string> RedisCluster::nodes_lines(int port) const {
    std::vector<std::string> out;
    auto reply = try_cmd(port, {"CLUSTER", "NODES"});
    if (!reply)
        return out;
    std::istringstream in{std::string(reply->str())};
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line);
    return out;
}

namespace {

// The integer after "field:" in an INFO reply, -1 when absent.
int64_t info_field(std::string_view info, std::string_view field) {
    const auto at = info.find(std::string(field) + ":");
    return at == std::string_view::npos
               ? -1
               : std::atoll(std::string(info.substr(at + field.size() + 1, 20)).c_str());
}

} // namespace

bool RedisCluster::is_master(int port) const {
    auto role = try_cmd(port, {"ROLE"});
    return role && role->size() > 0 && (*role)[0].str() == "master";
}

bool RedisCluster::caught_up(int master, int replica) const {
    const auto written =
        info_field(cmd(master, {"INFO", "replication"}).str(), "master_repl_offset");
    const auto applied =
        info_field(cmd(replica, {"INFO", "replication"}).str(), "slave_repl_offset");
    return written >= 0 && applied >= written;
}

int64_t RedisCluster::blocked_clients(int port) const {
    return info_field(cmd(port, {"INFO", "clients"}).str(), "blocked_clients");
}

pid_t RedisCluster::pid(int port) const {
    for (const auto& node : nodes_)
        if (node.port == port)
            return node.pid;
    return -1;
}

void RedisCluster::kill(int port) {
    damaged_ = true;
    for (auto& node : nodes_)
        if (node.port == port && node.pid > 0) {
            ::kill(node.pid, SIGKILL);
            waitpid(node.pid, nullptr, 0);
            node.pid = -1;
        }
}

bool RedisCluster::wait_stable(std::chrono::milliseconds timeout) const {
    return eventually(
        [&] {
            std::set<int> running;
            for (const auto& node : nodes_)
                if (node.pid > 0)
                    running.insert(node.port);
            std::optional<std::string> agreed;
            for (int port : running) {
                auto info = try_cmd(port, {"CLUSTER", "INFO"});
                if (!info || info->str().find("cluster_state:ok") == std::string_view::npos)
                    return false;
                const auto nodes = parse_nodes(nodes_lines(port));
                for (const auto& node : nodes) {
                    if (running.contains(node.port) &&
                        (node.failed() || node.has("handshake") || node.has("noaddr")))
                        return false;
                    if (node.has("myself") && node.has("slave")) {
                        auto repl = try_cmd(port, {"INFO", "replication"});
                        if (!repl ||
                            repl->str().find("master_link_status:up") == std::string_view::npos)
                            return false;
                    }
                }
                if (nodes.size() < running.size())
                    return false;
                const auto view = slot_view(nodes);
                if (agreed && *agreed != view)
                    return false;
                agreed = view;
            }
            return agreed.has_value();
        },
        timeout, kPoll);
}

std::vector<int> RedisCluster::masters() const {
    for (const auto& node : nodes_) {
        if (node.pid <= 0)
            continue;
        auto lines = parse_nodes(nodes_lines(node.port));
        if (lines.empty())
            continue;
        std::vector<std::pair<int, int>> firsts;
        for (const auto& line : lines)
            if (line.has("master") && !line.failed() && !line.slots.empty())
                firsts.emplace_back(line.slots.front().first, line.port);
        std::sort(firsts.begin(), firsts.end());
        std::vector<int> out;
        for (const auto& [first, port] : firsts)
            out.push_back(port);
        return out;
    }
    FAIL("no cluster node answers CLUSTER NODES");
    return {};
}

int RedisCluster::owner(uint16_t slot) const {
    for (const auto& node : nodes_) {
        if (node.pid <= 0)
            continue;
        for (const auto& line : parse_nodes(nodes_lines(node.port)))
            if (line.has("master") && !line.failed())
                for (const auto& [first, last] : line.slots)
                    if (slot >= first && slot <= last)
                        return line.port;
        break;
    }
    return 0;
}

int RedisCluster::replica_of(int master) const {
    const std::string master_id = id(master);
    for (const auto& node : nodes_) {
        if (node.pid <= 0)
            continue;
        for (const auto& line : parse_nodes(nodes_lines(node.port)))
            if (line.has("slave") && !line.failed() && line.master_id == master_id)
                return line.port;
        break;
    }
    return 0;
}

std::string RedisCluster::id(int port) const {
    return std::string(cmd(port, {"CLUSTER", "MYID"}).str());
}

int RedisCluster::owner_of_name(std::string_view name) const {
    return owner(redis::key_slot(name));
}

std::string RedisCluster::name_on(int port, std::string_view stem) const {
    // One look at the topology, then names tried until one falls on `port`.
    std::vector<std::pair<int, int>> ranges;
    for (const auto& line : parse_nodes(nodes_lines(port)))
        if (line.has("myself") && line.has("master"))
            ranges = line.slots;
    REQUIRE_FALSE(ranges.empty());
    for (int n = 0;; ++n) {
        std::string name = std::string(stem) + std::to_string(n);
        const int slot = redis::key_slot(name);
        for (const auto& [first, last] : ranges)
            if (slot >= first && slot <= last)
                return name;
    }
}

bool RedisCluster::exists(const std::string& key) const {
    const int port = owner(redis::key_slot(key));
    return port != 0 && cmd(port, {"EXISTS", key}).integer() == 1;
}

void RedisCluster::begin_migration(uint16_t slot, int to) {
    damaged_ = true;
    const int from = owner(slot);
    const std::string s = std::to_string(slot);
    cmd(to, {"CLUSTER", "SETSLOT", s, "IMPORTING", id(from)});
    cmd(from, {"CLUSTER", "SETSLOT", s, "MIGRATING", id(to)});
}

void RedisCluster::migrate_keys(uint16_t slot, int from, int to) {
    const std::string s = std::to_string(slot), target = std::to_string(to);
    for (;;) {
        auto keys = cmd(from, {"CLUSTER", "GETKEYSINSLOT", s, "1000"});
        if (keys.size() == 0)
            return;
        std::vector<std::string> argv{"MIGRATE", "127.0.0.1", target, "", "0", "5000", "KEYS"};
        for (size_t i = 0; i < keys.size(); ++i)
            argv.emplace_back(keys[i].str());
        const std::vector<std::string_view> views(argv.begin(), argv.end());
        auto moved = run_on(from, views);
        if (!moved)
            FAIL("MIGRATE of slot " << slot << " failed: " << moved.error().message);
    }
}

void RedisCluster::end_migration(uint16_t slot, int from, int to) {
    const std::string s = std::to_string(slot), target = id(to);
    cmd(to, {"CLUSTER", "SETSLOT", s, "NODE", target});
    cmd(from, {"CLUSTER", "SETSLOT", s, "NODE", target});
    for (int m : masters())
        if (m != to && m != from)
            cmd(m, {"CLUSTER", "SETSLOT", s, "NODE", target});
    // Done: a healthy cluster with another slot layout, which the next test may use.
    damaged_ = !wait_stable();
}

} // namespace dlock::test
