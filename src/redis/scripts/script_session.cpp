#include "redis/scripts/script_session.hpp"

#include "redis/protocol/server_error.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <map>
#include <thread>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxRedirects = 5;
constexpr Millis kFirstPause{10};
constexpr Millis kMaxPause{200};
// Sentinel: a master named longer ago than this is confirmed with the sentinels before it is
// used (one round trip), since a demoted master takes writes for seconds: a release at the end
// of a long run, a waiter's next try, go to the master of now.
constexpr Millis kMasterMaxAge{1000};

// The error of a result, if it is one; for a batch, the first call's (a redirect or a busy
// cluster concerns the slot, so every call of a batch routed together).
const Error* error_of(const Result<Reply>& r) {
    return r ? nullptr : &r.error();
}
const Error* error_of(const ScriptReplies& r) {
    for (const auto& reply : r.replies)
        if (!reply)
            return &reply.error();
    if (r.acks && !*r.acks)
        return &r.acks->error();
    return nullptr;
}

template <typename R>
R failed_with(Error e);
template <>
Result<Reply> failed_with(Error e) {
    return tl::unexpected(std::move(e));
}
template <>
ScriptReplies failed_with(Error e) {
    ScriptReplies out;
    out.replies.emplace_back(tl::unexpected(std::move(e)));
    return out;
}

} // namespace

ScriptSession::ScriptSession(Deployment deployment)
    : router_(std::make_unique<Router>(std::move(deployment))) {}

Result<void> ScriptSession::connect() {
    TRY(router_->connection_for(std::nullopt));
    return {};
}

Result<Connection*> ScriptSession::connection(std::optional<std::string_view> key) {
    return router_->connection_for(key);
}

template <typename R, typename Attempt>
R ScriptSession::routed(std::optional<std::string_view> key, Attempt attempt) {
    router_->confirm_master(kMasterMaxAge);
    const auto deadline = Clock::now() + deployment().command_timeout;
    Millis pause = kFirstPause;
    // Where the last reply sent us (MOVED or ASK), and which connection said so.
    std::optional<Redirect> redirect;
    Connection* redirected_by = nullptr;
    for (int redirects = 0;;) {
        // After a redirect, straight to the server it names: should that one be down (a
        // master just killed, still named until its replica takes over), say so, rather
        // than ask another node which would send us back to it.
        auto conn = redirect ? router_->connection_to(*redirect, *redirected_by)
                             : router_->connection_for(key);
        if (!conn) {
            if (redirect)
                conn.error().message +=
                    fmt::format(" (the Redis Cluster node for slot {})", redirect->slot);
            return failed_with<R>(std::move(conn.error()));
        }
        const bool asking = redirect && redirect->ask;
        redirect.reset();
        R result = attempt(**conn, asking);
        const Error* error = error_of(result);
        if (!error)
            return result;
        // A broken connection is given back whatever broke it: an error that is not transient
        // may break it too (a TLS server refusing the client, a missing password).
        if (error->transient || (*conn)->broken()) {
            if ((*conn)->broken())
                router_->failed(*conn);
            return result;
        }
        const std::string& message = error->message;
        const auto code = server_code(*error);
        if (code && is_redirect(*code)) {
            Redirect to = *error->server->redirect;
            if (++redirects > kMaxRedirects)
                return failed_with<R>(Error{
                    exit_code::unavailable,
                    fmt::format("too many Cluster redirects in a row (the last: {})", message),
                    true});
            if (!to.ask)
                if (auto ok = router_->moved(to, **conn); !ok)
                    return failed_with<R>(std::move(ok.error()));
            redirect = std::move(to);
            redirected_by = *conn;
            continue;
        }
        if (code && cluster_busy(*code)) {
            if (Clock::now() + pause >= deadline)
                return failed_with<R>(
                    Error{exit_code::unavailable,
                          fmt::format("Redis Cluster at {}: {}",
                                      (*conn)->options().endpoint.display(), message),
                          true});
            log::debug("{}: retrying in {}", message, format_duration(pause));
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, kMaxPause);
            // While a slot migrates, ASK (source) and TRYAGAIN (target) alternate until it
            // ends: bounded by the deadline, not by the count of redirects.
            redirects = 0;
            continue;
        }
        if (code == ServerErrorCode::unblocked) {
            // A failover demoted the server under our BLPOP: send it again, reconnecting (the
            // demoted node redirects to its successor; Sentinel names the new master).
            router_->failed(*conn);
            if (++redirects > kMaxRedirects)
                return failed_with<R>(Error{exit_code::unavailable, message, true});
            continue;
        }
        if (code && not_master(*code)) {
            const auto where = (*conn)->options().endpoint.display();
            router_->failed(*conn);
            // Sentinel: the master was demoted a moment ago. Nothing ran (a replica refuses
            // every write): again, on the master the sentinels name now (a bounded number of
            // times: each resolution waits for a master within the connect timeout).
            if (deployment().kind == Deployment::Kind::sentinel && ++redirects <= kMaxRedirects) {
                log::debug("{} is no longer the master ({}): asking the sentinels", where, message);
                continue;
            }
            // A replica named by the URL will not become the master by retrying; one Sentinel
            // or a Cluster named may have been demoted a moment ago.
            const bool direct =
                deployment().kind == Deployment::Kind::direct && !router_->cluster();
            return failed_with<R>(Error{
                exit_code::unavailable,
                direct ? fmt::format("Redis at {} is a replica, not the master ({}): --redis "
                                     "must name the master",
                                     where, message)
                       : fmt::format("Redis at {} is no longer the master ({})", where, message),
                !direct});
        }
        return result;
    }
}

bool ScriptSession::must_reroute(const Result<Reply>& reply) {
    if (reply || reply.error().transient)
        return false;
    const auto code = server_code(reply.error());
    return code && (is_redirect(*code) || cluster_busy(*code) || not_master(*code));
}

ScriptReplies ScriptSession::pipelined(const EmbeddedScript& script,
                                       std::span<const ScriptCall> calls, Acknowledge acknowledge) {
    router_->confirm_master(kMasterMaxAge);
    ScriptReplies out;
    out.replies.reserve(calls.size());
    for (size_t i = 0; i < calls.size(); ++i)
        out.replies.emplace_back(tl::unexpected(Error{}));
    // The calls grouped by the server of their first key: one round trip to each.
    std::map<Connection*, std::vector<size_t>> groups;
    for (size_t i = 0; i < calls.size(); ++i) {
        auto conn = router_->connection_for(calls[i].keys.front());
        if (conn)
            groups[*conn].push_back(i);
        else
            out.replies[i] = tl::unexpected(conn.error());
    }
    // After the connections: the sentinels were asked for the master (and its replicas) then.
    out.replication = router_->replication(acknowledge == Acknowledge::extending);
    ScriptOptions options;
    options.wait = acknowledge == Acknowledge::none ? nullptr : &out.replication;
    for (auto& [conn, indexes] : groups) {
        std::vector<ScriptCall> batch;
        batch.reserve(indexes.size());
        for (size_t i : indexes)
            batch.push_back(calls[i]);
        ScriptReplies got = run_script_pipelined(*conn, script, batch, options);
        if (conn->broken())
            router_->failed(conn);
        // WAIT's answer counts where a call ran: a node that redirected all of them wrote
        // nothing of ours (its replicas may well be fewer than the right node's).
        if (std::any_of(got.replies.begin(), got.replies.end(),
                        [](const Result<Reply>& r) { return !must_reroute(r); }))
            merge_acks(out.acks, std::move(got.acks));
        for (size_t j = 0; j < indexes.size(); ++j)
            out.replies[indexes[j]] = std::move(got.replies[j]);
    }
    // What a Cluster redirected (or was migrating) goes again alone, following the redirects.
    for (size_t i = 0; i < calls.size(); ++i) {
        if (!must_reroute(out.replies[i]))
            continue;
        const ScriptCall& call = calls[i];
        ScriptReplies alone = routed<ScriptReplies>(call.keys.front(), [&](Connection& conn,
                                                                           bool asking) {
            ScriptOptions one = options;
            one.asking = asking;
            return run_script_pipelined(conn, script, std::span<const ScriptCall>(&call, 1), one);
        });
        out.replies[i] = std::move(alone.replies.front());
        merge_acks(out.acks, std::move(alone.acks));
    }
    for (auto& reply : out.replies)
        if (!reply)
            reply = tl::unexpected(script_error(std::move(reply.error()), script));
    return out;
}

void ScriptSession::merge_acks(std::optional<Result<int64_t>>& into,
                               std::optional<Result<int64_t>> from) {
    if (!from)
        return;
    if (!into || (*into && (!*from || **from < **into)))
        into = std::move(from);
}

Result<Reply> ScriptSession::run(const EmbeddedScript& script,
                                 const std::vector<std::string_view>& keys,
                                 const std::vector<std::string_view>& args) {
    const ScriptCall call{keys, args};
    return std::move(pipelined(script, std::span<const ScriptCall>(&call, 1), Acknowledge::none)
                         .replies.front());
}

ScriptReplies ScriptSession::run_acknowledged(const EmbeddedScript& script,
                                              const std::vector<std::string_view>& keys,
                                              const std::vector<std::string_view>& args) {
    const ScriptCall call{keys, args};
    return pipelined(script, std::span<const ScriptCall>(&call, 1), Acknowledge::taking);
}

std::vector<Result<Reply>> ScriptSession::run_each(const EmbeddedScript& script,
                                                   std::span<const ScriptCall> calls) {
    return std::move(pipelined(script, calls, Acknowledge::none).replies);
}

ScriptReplies ScriptSession::run_each_acknowledged(const EmbeddedScript& script,
                                                   std::span<const ScriptCall> calls) {
    return pipelined(script, calls, Acknowledge::extending);
}

Result<Reply> ScriptSession::command(std::string_view key,
                                     std::initializer_list<std::string_view> args) {
    const std::vector<std::string> argv(args.begin(), args.end());
    return routed<Result<Reply>>(key, [&](Connection& conn, bool asking) -> Result<Reply> {
        auto replies = asking ? conn.pipeline({{"ASKING"}, argv}) : conn.pipeline({argv});
        if (!replies)
            return tl::unexpected(replies.error());
        return std::move(replies->back());
    });
}

Result<bool> ScriptSession::blpop(std::string_view key, Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    const std::string k(key);
    auto popped = routed<Result<Reply>>(key, [&](Connection& conn, bool asking) -> Result<Reply> {
        // After a redirect, only what is left of the wait. Under 1 ms: LPOP, since BLPOP 0
        // would block forever.
        const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now());
        std::vector<std::vector<std::string>> batch;
        if (asking)
            batch.push_back({"ASKING"});
        if (left < Millis(1))
            batch.push_back({"LPOP", k});
        else // seconds with decimals (Redis >= 6)
            batch.push_back(
                {"BLPOP", k, fmt::format("{:.3f}", static_cast<double>(left.count()) / 1000)});
        auto replies = conn.pipeline(batch, std::max(left, Millis(0)) + kServerTimerSlack);
        if (!replies)
            return tl::unexpected(replies.error());
        return std::move(replies->back());
    });
    if (!popped)
        return tl::unexpected(classify_server_error(std::move(popped.error())));
    return !popped->is_nil();
}

void ScriptSession::confirm_master() {
    router_->confirm_master();
}

Result<std::vector<Connection*>> ScriptSession::masters() {
    return router_->masters();
}

} // namespace dlock::redis
