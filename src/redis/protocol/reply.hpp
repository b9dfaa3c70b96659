#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

struct redisReply;

namespace dlock::redis {

// Owns one hiredis reply tree (freeReplyObject on destruction). Elements of an array are
// viewed through non-owning ReplyView.
class ReplyView {
  public:
    explicit ReplyView(const redisReply* r) : r_(r) {}
    bool is_nil() const;
    bool is_integer() const;
    bool is_string() const; // bulk or status
    bool is_array() const;
    bool is_error() const;
    int64_t integer() const;
    std::string_view str() const;
    size_t size() const;                  // array length
    ReplyView operator[](size_t i) const; // nil past the end, or when this is no array
    // An integer, or a string holding exactly one (as Redis sends a number kept in a hash or
    // a stream); nullopt for anything else, so that a garbled field is never read as 0.
    std::optional<int64_t> to_int() const;

  private:
    const redisReply* r_;
};

class Reply : public ReplyView {
  public:
    explicit Reply(redisReply* r);
    ~Reply();
    Reply(Reply&& other) noexcept;
    Reply& operator=(Reply&& other) noexcept;
    Reply(const Reply&) = delete;

  private:
    redisReply* owned_;
};

} // namespace dlock::redis
