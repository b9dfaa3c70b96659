#include "redis/scripts/script_session.hpp"

#include "redis/protocol/server_error.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <map>

namespace dlock::redis {
namespace {

using Clock = std::chrono::steady_clock;

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
    Attempts attempts{Clock::now() + deployment().command_timeout};
    // Where the last reply sent us (MOVED or ASK).
    std::optional<Redirect> redirect;
    for (;;) {
        // After a redirect, straight to the server it names: should that one be down (a
        // master just killed, still named until its replica takes over), say so, rather
        // than ask another node which would send us back to it.
        auto conn = redirect ? router_->connection_to(*redirect) : router_->connection_for(key);
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
        // What the deployment's kind makes of the error reply (see Topology::after_error).
        Reroute next = router_->after_error(*error, **conn, attempts);
        switch (next.action) {
        case Reroute::Action::reply:
            return result;
        case Reroute::Action::fail:
            return failed_with<R>(std::move(next.error));
        case Reroute::Action::redirect:
            redirect = std::move(next.redirect);
            break;
        case Reroute::Action::resend:
            break;
        }
    }
}

bool ScriptSession::must_reroute(const Result<Reply>& reply) {
    if (reply || reply.error().transient)
        return false;
    const Error& error = reply.error();
    return redirect_of(error) || cluster_busy(error) || not_master(error);
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
    auto popped = blpop_value(key, timeout);
    TRY(popped);
    return popped->has_value();
}

Result<std::optional<std::string>> ScriptSession::blpop_value(std::string_view key,
                                                              Millis timeout) {
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
    if (popped->is_nil())
        return std::optional<std::string>();
    // BLPOP answers [key, element]; LPOP the element.
    const ReplyView element = popped->is_array() ? (*popped)[1] : ReplyView(*popped);
    return std::optional<std::string>(element.str());
}

void ScriptSession::confirm_master() {
    router_->confirm_master();
}

Result<std::vector<Connection*>> ScriptSession::masters() {
    return router_->masters();
}

} // namespace dlock::redis
