#include "support/redis_node.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace dlock::test {

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
    if (!redis_server_binary())
        return nullptr;
    std::unique_ptr<RedisNode> node(new RedisNode(std::move(options)));
    node->make_dir("/tmp/dlock-node-");
    node->launch_on_free_port();
    return node;
}

std::vector<std::string> RedisNode::arguments() const {
    const std::string port = std::to_string(this->port()), log = dir() + "/redis.log";
    if (options_.sentinel) {
        const std::string conf = dir() + "/sentinel.conf";
        std::ofstream(conf) << "port " << port << "\nbind 127.0.0.1\ndir " << dir() << "\nlogfile "
                            << log << "\n"
                            << options_.config;
        if (!options_.password.empty())
            std::ofstream(conf, std::ios::app) << "requirepass " << options_.password << "\n";
        return {conf, "--sentinel"};
    }
    std::vector<std::string> args{"--port",       port, "--bind", "127.0.0.1", "--save",    "",
                                  "--appendonly", "no", "--dir",  dir(),       "--logfile", log};
    if (!options_.password.empty())
        args.insert(args.end(), {"--requirepass", options_.password});
    args.insert(args.end(), options_.args.begin(), options_.args.end());
    return args;
}

redis::ConnectOptions RedisNode::connect_options() const {
    redis::ConnectOptions options;
    options.endpoint.host = "127.0.0.1";
    options.endpoint.port = port();
    options.endpoint.password = options_.password;
    options.connect_timeout = std::chrono::seconds(2);
    options.command_timeout = std::chrono::seconds(5);
    return options;
}

} // namespace dlock::test
