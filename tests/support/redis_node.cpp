#include "support/redis_node.hpp"

#include "support/dlock_process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace dlock::test {
namespace {

const char* const kRedisServer = "redis-server";

redis::ConnectOptions options_for(int port, const std::string& password) {
    redis::ConnectOptions options;
    options.endpoint.host = "127.0.0.1";
    options.endpoint.port = port;
    options.endpoint.password = password;
    options.connect_timeout = std::chrono::seconds(2);
    options.command_timeout = std::chrono::seconds(5);
    return options;
}

} // namespace

int unused_tcp_port() {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    close(fd);
    return ntohs(addr.sin_port);
}

SilentListener::SilentListener() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(listen(fd_, 16) == 0);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
}

SilentListener::~SilentListener() {
    close(fd_);
}

bool SilentListener::contacted() const {
    const int conn = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (conn < 0)
        return false;
    close(conn);
    return true;
}

std::unique_ptr<RedisNode> RedisNode::start(Options options) {
    if (system("command -v redis-server >/dev/null 2>&1") != 0)
        return nullptr;
    std::unique_ptr<RedisNode> node(new RedisNode());
    node->options_ = std::move(options);
    char tmpl[] = "/tmp/dlock-node-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    node->dir_ = tmpl;
    for (int attempt = 0; attempt < 5; ++attempt) {
        node->port_ = unused_tcp_port();
        if (node->launch())
            return node;
    }
    FAIL("could not start redis-server in " << node->dir_);
    return nullptr;
}

bool RedisNode::launch() {
    const std::string port = std::to_string(port_), log = dir_ + "/redis.log";
    std::vector<std::string> argv{kRedisServer};
    if (options_.sentinel) {
        const std::string conf = dir_ + "/sentinel.conf";
        std::ofstream(conf) << "port " << port << "\nbind 127.0.0.1\ndir " << dir_ << "\nlogfile "
                            << log << "\n"
                            << options_.config;
        if (!options_.password.empty())
            std::ofstream(conf, std::ios::app) << "requirepass " << options_.password << "\n";
        argv.insert(argv.end(), {conf, "--sentinel"});
    } else {
        argv.insert(argv.end(), {"--port", port, "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", dir_, "--logfile", log});
        if (!options_.password.empty())
            argv.insert(argv.end(), {"--requirepass", options_.password});
        argv.insert(argv.end(), options_.args.begin(), options_.args.end());
    }
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ == 0) {
        // Dies with the test: a test that crashes leaves no servers running.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        std::vector<char*> args;
        for (auto& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        execvp(kRedisServer, args.data());
        _exit(127);
    }
    REQUIRE(pid_ > 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        int status;
        if (waitpid(pid_, &status, WNOHANG) == pid_) { // died: port taken?
            pid_ = -1;
            return false;
        }
        if (auto conn = redis::Connection::open(options_for(port_, options_.password)))
            if (conn->command({"PING"}))
                return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

RedisNode::~RedisNode() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void RedisNode::pause() const {
    kill(pid_, SIGSTOP);
}

void RedisNode::resume() const {
    kill(pid_, SIGCONT);
}

void RedisNode::stop() {
    if (pid_ <= 0)
        return;
    kill(pid_, SIGCONT);
    kill(pid_, SIGTERM);
    int status;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

void RedisNode::crash() {
    if (pid_ <= 0)
        return;
    kill(pid_, SIGKILL);
    int status;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

void RedisNode::restart() {
    stop();
    // The port was ours a moment ago; another process may take it meanwhile, rarely.
    REQUIRE(eventually([&] { return launch(); }, std::chrono::seconds(20)));
}

redis::Connection RedisNode::connect() const {
    auto conn = redis::Connection::open(options_for(port_, options_.password));
    if (!conn)
        FAIL("cannot connect to the test server at " << address() << ": " << conn.error().message);
    return std::move(*conn);
}

Result<redis::Reply> RedisNode::try_cmd(std::initializer_list<std::string_view> args) const {
    TRY_ASSIGN(auto conn, redis::Connection::open(options_for(port_, options_.password)));
    return conn.command(args);
}

redis::Reply RedisNode::cmd(std::initializer_list<std::string_view> args) const {
    auto reply = try_cmd(args);
    if (!reply)
        FAIL("command " << *args.begin() << " failed on " << address() << ": "
                        << reply.error().message);
    return std::move(*reply);
}

std::string RedisNode::info(std::string_view section, std::string_view field) const {
    auto reply = try_cmd({"INFO", section});
    if (!reply)
        return "";
    const std::string text(reply->str());
    const std::string wanted = std::string(field) + ":";
    for (size_t start = 0; start < text.size();) {
        const size_t end = std::min(text.find("\r\n", start), text.size());
        if (text.compare(start, wanted.size(), wanted) == 0)
            return text.substr(start + wanted.size(), end - start - wanted.size());
        start = end + 2;
    }
    return "";
}

} // namespace dlock::test
