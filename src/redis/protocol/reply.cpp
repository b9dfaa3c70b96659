#include "redis/protocol/reply.hpp"

#include <charconv>
#include <hiredis/hiredis.h>

namespace dlock::redis {

bool ReplyView::is_nil() const {
    return r_->type == REDIS_REPLY_NIL;
}
bool ReplyView::is_integer() const {
    return r_->type == REDIS_REPLY_INTEGER;
}
bool ReplyView::is_string() const {
    return r_->type == REDIS_REPLY_STRING || r_->type == REDIS_REPLY_STATUS;
}
bool ReplyView::is_array() const {
    return r_->type == REDIS_REPLY_ARRAY;
}
bool ReplyView::is_error() const {
    return r_->type == REDIS_REPLY_ERROR;
}
int64_t ReplyView::integer() const {
    return r_->integer;
}
std::string_view ReplyView::str() const {
    return is_string() || is_error() ? std::string_view(r_->str, r_->len) : std::string_view();
}
size_t ReplyView::size() const {
    return is_array() ? r_->elements : 0;
}
ReplyView ReplyView::operator[](size_t i) const {
    // A server may send any shape: reading past a short array, or into something that is no
    // array, gives nil (an empty string, 0) rather than undefined behaviour.
    static const redisReply nil = [] {
        redisReply r{};
        r.type = REDIS_REPLY_NIL;
        return r;
    }();
    if (i >= size() || r_->element[i] == nullptr)
        return ReplyView(&nil);
    return ReplyView(r_->element[i]);
}

std::optional<int64_t> ReplyView::to_int() const {
    if (is_integer())
        return r_->integer;
    if (!is_string())
        return std::nullopt;
    const auto text = str();
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

Reply::Reply(redisReply* r) : ReplyView(r), owned_(r) {}
Reply::~Reply() {
    if (owned_)
        freeReplyObject(owned_);
}
Reply::Reply(Reply&& other) noexcept : ReplyView(other), owned_(other.owned_) {
    other.owned_ = nullptr;
}
Reply& Reply::operator=(Reply&& other) noexcept {
    if (this != &other) {
        if (owned_)
            freeReplyObject(owned_);
        ReplyView::operator=(other);
        owned_ = other.owned_;
        other.owned_ = nullptr;
    }
    return *this;
}

} // namespace dlock::redis
