#include "redis/protocol/reply_reader.hpp"

#include <charconv>
#include <hiredis/hiredis.h>
#include <new>
#include <string>
#include <type_traits>

namespace dlock::redis {
namespace {

// What one reply object costs besides its payload: the redisReply and the allocator's header.
constexpr size_t kObjectCost = sizeof(redisReply) + 16;

// hiredis's own reply constructors, which the budgeted ones below call.
const redisReplyObjectFunctions& hiredis_functions() {
    static const redisReplyObjectFunctions functions = [] {
        redisReader* reader = redisReaderCreate();
        if (reader == nullptr)
            throw std::bad_alloc();
        const redisReplyObjectFunctions copy = *reader->fn;
        redisReaderFree(reader);
        return copy;
    }();
    return functions;
}

} // namespace

struct ReplyReader::State {
    struct ReaderFree {
        void operator()(redisReader* r) const { redisReaderFree(r); }
    };
    std::unique_ptr<redisReader, ReaderFree> reader;
    size_t charged = 0; // bytes of the reply tree built so far
    Failure failure = Failure::none;
    // The last parse needed more bytes, and none of those since ends a line. hiredis scans a
    // pending line from its start at every parse: a line without end, fed 16 KiB at a time,
    // would cost time quadratic in its length. Every RESP item ends in "\r\n", so nothing can
    // complete before a '\n' arrives.
    bool stalled = false;
    std::string error; // our reason for a protocol failure hiredis does not see

    // Whether the reply being built may grow by `count` units of `unit` bytes plus `extra`
    // (without overflow, whatever the count); a refusal makes hiredis stop.
    bool charge(size_t count, size_t unit, size_t extra) {
        const size_t left = kMaxReplyBytes - charged;
        if (extra > left || count > (left - extra) / unit) {
            failure = Failure::too_large;
            return false;
        }
        charged += count * unit + extra;
        return true;
    }
    // Bytes received and not parsed yet.
    size_t unparsed() const { return reader->len - reader->pos; }
    // The length a bulk string or array header announces, once its digits are in: hiredis
    // waits for a whole bulk string before it looks further, so a huge one is refused here.
    bool announces_too_much() const;
};

namespace {

ReplyReader::State& state_of(const redisReadTask* task) {
    return *static_cast<ReplyReader::State*>(task->privdata);
}

void* create_string(const redisReadTask* task, char* text, size_t len) {
    if (!state_of(task).charge(len, 1, 1 + kObjectCost))
        return nullptr;
    return hiredis_functions().createString(task, text, len);
}

// The type of an array's count: an int in hiredis 0.14 (a longer count is cut), a size_t after.
template <typename Count>
Count count_of(void* (*)(const redisReadTask*, Count));
using ArrayCount = decltype(count_of(redisReplyObjectFunctions{}.createArray));

void* create_array(const redisReadTask* task, ArrayCount elements) {
    auto& state = state_of(task);
    if constexpr (std::is_signed_v<ArrayCount>) {
        // hiredis 0.14 would build an array of "(size_t)-5" elements and no storage.
        if (elements < 0) {
            state.failure = ReplyReader::Failure::protocol;
            state.error = "negative array length";
            return nullptr;
        }
    }
    if (!state.charge(static_cast<size_t>(elements), sizeof(redisReply*), kObjectCost))
        return nullptr;
    return hiredis_functions().createArray(task, elements);
}

void* create_integer(const redisReadTask* task, long long value) {
    if (!state_of(task).charge(0, 1, kObjectCost))
        return nullptr;
    return hiredis_functions().createInteger(task, value);
}

void* create_nil(const redisReadTask* task) {
    if (!state_of(task).charge(0, 1, kObjectCost))
        return nullptr;
    return hiredis_functions().createNil(task);
}

redisReplyObjectFunctions* budgeted_functions() {
    static redisReplyObjectFunctions functions = [] {
        redisReplyObjectFunctions fns = hiredis_functions();
        fns.createString = create_string;
        fns.createArray = create_array;
        fns.createInteger = create_integer;
        fns.createNil = create_nil;
        return fns;
    }();
    return &functions;
}

} // namespace

bool ReplyReader::State::announces_too_much() const {
    const redisReader& r = *reader;
    if (r.ridx < 0 || r.err != 0)
        return false;
    const int type = r.rstack[r.ridx].type;
    if (type != REDIS_REPLY_STRING && type != REDIS_REPLY_ARRAY)
        return false;
    // The type byte is consumed; the digits of the length follow, complete or not.
    const char* digits = r.buf + r.pos;
    const char* end = r.buf + r.len;
    unsigned long long length = 0;
    const auto [stop, ec] = std::from_chars(digits, end, length);
    if (ec == std::errc::result_out_of_range)
        return true;
    const size_t per_unit = type == REDIS_REPLY_ARRAY ? sizeof(redisReply*) : 1;
    return ec == std::errc() && length > kMaxReplyBytes / per_unit;
}

ReplyReader::ReplyReader() : state_(std::make_unique<State>()) {
    state_->reader.reset(redisReaderCreate());
    if (!state_->reader)
        throw std::bad_alloc();
    state_->reader->fn = budgeted_functions();
    state_->reader->privdata = state_.get(); // copied into every read task
}

ReplyReader::~ReplyReader() = default;
ReplyReader::ReplyReader(ReplyReader&&) noexcept = default;
ReplyReader& ReplyReader::operator=(ReplyReader&&) noexcept = default;

void ReplyReader::feed(std::string_view bytes) {
    if (state_->failure != Failure::none)
        return;
    const size_t held = state_->charged + state_->unparsed();
    if (held > kMaxReplyBytes || bytes.size() > kMaxReplyBytes - held) {
        state_->failure = Failure::too_large;
        return;
    }
    if (bytes.find('\n') != std::string_view::npos)
        state_->stalled = false;
    if (redisReaderFeed(state_->reader.get(), bytes.data(), bytes.size()) != REDIS_OK)
        throw std::bad_alloc();
}

std::optional<Reply> ReplyReader::next() {
    if (state_->failure != Failure::none || state_->stalled)
        return std::nullopt;
    void* raw = nullptr;
    if (redisReaderGetReply(state_->reader.get(), &raw) != REDIS_OK) {
        if (state_->failure == Failure::none)
            state_->failure = Failure::protocol;
        return std::nullopt;
    }
    if (raw != nullptr) {
        state_->charged = 0; // the next reply starts its own budget
        return Reply(static_cast<redisReply*>(raw));
    }
    if (state_->announces_too_much())
        state_->failure = Failure::too_large;
    state_->stalled = true;
    return std::nullopt;
}

ReplyReader::Failure ReplyReader::failure() const {
    return state_->failure;
}

std::string_view ReplyReader::protocol_error() const {
    if (!state_->error.empty())
        return state_->error;
    return state_->reader->errstr;
}

} // namespace dlock::redis
