#include "support/redis_server.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dlock::test {
namespace {

std::optional<std::string> find_in_path() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    dirs += ":/usr/sbin:/usr/local/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        std::string candidate = dirs.substr(start, end - start) + "/redis-server";
        if (access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

} // namespace

int free_tcp_port() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
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

std::optional<std::string> redis_server_binary() {
    return find_in_path();
}

bool redis_required() {
    const char* ci = std::getenv("CI");
    return ci && *ci && std::string(ci) != "0" && std::string(ci) != "false";
}

std::unique_ptr<RedisServer> RedisServer::start(ExtraArgs extra) {
    if (!redis_server_binary())
        return nullptr;
    std::unique_ptr<RedisServer> server(new RedisServer());
    server->extra_ = std::move(extra);
    char tmpl[] = "/tmp/dlock-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    server->dir_ = tmpl;
    server->socket_ = server->dir_ + "/redis.sock";
    for (int attempt = 0; attempt < 5; ++attempt) {
        server->port_ = free_tcp_port();
        if (server->launch())
            return server;
    }
    FAIL("could not start redis-server in " << server->dir_);
    return nullptr;
}

bool RedisServer::launch() {
    static const std::string binary = *redis_server_binary();
    std::vector<std::string> args = {binary, "--port", std::to_string(port_), "--bind",
                                     "127.0.0.1"};
    args.insert(args.end(), {"--unixsocket", socket_, "--unixsocketperm", "700", "--save", ""});
    args.insert(args.end(), {"--appendonly", "no", "--dir", dir_, "--daemonize", "no"});
    args.insert(args.end(), {"--logfile", dir_ + "/redis.log"});
    if (extra_)
        for (auto& arg : extra_(port_))
            args.push_back(std::move(arg));
    std::vector<char*> argv;
    for (auto& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
        execv(binary.c_str(), argv.data());
        _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        int status;
        if (waitpid(pid_, &status, WNOHANG) == pid_) { // died: port taken?
            pid_ = -1;
            return false;
        }
        redis::ConnectOptions options;
        options.endpoint.unix_path = socket_;
        if (auto conn = redis::Connection::open(options)) {
            if (auto pong = conn->command({"PING"}); pong)
                return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

RedisServer::~RedisServer() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void RedisServer::stop() {
    if (pid_ <= 0)
        return;
    kill(pid_, SIGTERM);
    int status;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    std::error_code ec;
    std::filesystem::remove(socket_, ec);
}

void RedisServer::restart() {
    stop();
    REQUIRE(launch());
}

redis::Connection RedisServer::connect() const {
    redis::ConnectOptions options;
    options.endpoint.unix_path = socket_;
    auto conn = redis::Connection::open(options);
    if (!conn)
        FAIL("cannot connect to test redis: " << conn.error().message);
    return std::move(*conn);
}

redis::ScriptSession RedisServer::session() const {
    redis::ConnectOptions options;
    options.endpoint.unix_path = socket_;
    return redis::ScriptSession(options);
}

redis::Reply RedisServer::cmd(std::initializer_list<std::string_view> args) const {
    auto conn = connect();
    auto reply = conn.command(args);
    if (!reply)
        FAIL("redis command failed: " << reply.error().message);
    return std::move(*reply);
}

} // namespace dlock::test
