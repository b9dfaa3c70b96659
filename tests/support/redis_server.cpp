#include "support/redis_server.hpp"

namespace dlock::test {

std::unique_ptr<RedisServer> RedisServer::start(ExtraArgs extra) {
    if (!redis_server_binary())
        return nullptr;
    std::unique_ptr<RedisServer> server(new RedisServer(std::move(extra)));
    server->make_dir("/tmp/dlock-test-");
    server->socket_ = server->dir() + "/redis.sock";
    server->launch_on_free_port();
    return server;
}

std::vector<std::string> RedisServer::arguments() const {
    std::vector<std::string> args = {"--port", std::to_string(port()), "--bind", "127.0.0.1"};
    args.insert(args.end(), {"--unixsocket", socket_, "--unixsocketperm", "700", "--save", ""});
    args.insert(args.end(), {"--appendonly", "no", "--dir", dir(), "--daemonize", "no"});
    args.insert(args.end(), {"--logfile", dir() + "/redis.log"});
    if (extra_)
        for (auto& arg : extra_(port()))
            args.push_back(std::move(arg));
    return args;
}

redis::ConnectOptions RedisServer::connect_options() const {
    redis::ConnectOptions options;
    options.endpoint.unix_path = socket_;
    return options;
}

redis::ScriptSession RedisServer::session() const {
    return redis::ScriptSession(connect_options());
}

} // namespace dlock::test
