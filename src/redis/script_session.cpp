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
        if (!opened)
            return tl::unexpected(opened.error());
        conn_.emplace(std::move(*opened));
    }
    return &*conn_;
}

Result<Reply> ScriptSession::run(std::string_view script_name,
                                 const std::vector<std::string_view>& keys,
                                 const std::vector<std::string_view>& args) {
    auto conn = connection();
    if (!conn)
        return tl::unexpected(conn.error());
    return run_script(**conn, script(script_name), keys, args);
}

Result<bool> ScriptSession::blpop(std::string_view key, Millis timeout) {
    auto conn = connection();
    if (!conn)
        return tl::unexpected(conn.error());
    return (*conn)->blpop(key, timeout);
}

} // namespace dlock::redis
