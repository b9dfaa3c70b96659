#include "redis/script_session.hpp"

namespace dlock::redis {

Result<void> ScriptSession::connect() {
    return connection().map([](Connection*) {});
}

Result<Connection*> ScriptSession::connection() {
    if (conn_ && conn_->broken())
        conn_.reset();
    if (!conn_) {
        auto opened = Connection::open(options_);
        if (!opened) {
            if (!reached_)
                opened.error().transient = false;
            return tl::unexpected(opened.error());
        }
        conn_.emplace(std::move(*opened));
        reached_ = true;
    }
    return &*conn_;
}

Result<Reply> ScriptSession::run(const EmbeddedScript& script,
                                 const std::vector<std::string_view>& keys,
                                 const std::vector<std::string_view>& args) {
    auto conn = connection();
    TRY(conn);
    return run_script(**conn, script, keys, args);
}

std::vector<Result<Reply>> ScriptSession::run_each(const EmbeddedScript& script,
                                                   std::span<const ScriptCall> calls) {
    auto conn = connection();
    if (!conn) {
        std::vector<Result<Reply>> failed;
        for (size_t i = 0; i < calls.size(); ++i)
            failed.emplace_back(tl::unexpected(conn.error()));
        return failed;
    }
    return run_script_pipelined(**conn, script, calls);
}

Result<bool> ScriptSession::blpop(std::string_view key, Millis timeout) {
    auto conn = connection();
    TRY(conn);
    auto popped = (*conn)->blpop(key, timeout);
    if (!popped)
        return tl::unexpected(classify_server_error(std::move(popped.error())));
    return popped;
}

} // namespace dlock::redis
