#include "redis/scripts/script_reply.hpp"

#include "util/log.hpp"

#include <fmt/format.h>
#include <string>

namespace dlock::redis {

Error bad_reply(const EmbeddedScript& script) {
    return Error{Fault::internal, fmt::format("unexpected reply from script {}.lua", script.name)};
}

lock::HolderInfo holder_at(ReplyView list, size_t from) {
    return lock::HolderInfo{std::string(list[from].str()),     list[from + 1].as_int(),
                            std::string(list[from + 2].str()), std::string(list[from + 3].str()),
                            list[from + 4].as_int(),           list[from + 5].as_int()};
}

std::vector<Result<bool>> as_flags(std::vector<Result<Reply>> replies,
                                   const EmbeddedScript& script) {
    std::vector<Result<bool>> flags;
    flags.reserve(replies.size());
    for (auto& reply : replies) {
        if (!reply)
            flags.emplace_back(tl::unexpected(std::move(reply.error())));
        else if (!reply->is_integer())
            flags.emplace_back(tl::unexpected(bad_reply(script)));
        else
            flags.emplace_back(reply->integer() == 1);
    }
    return flags;
}

void note_history_error(ReplyView reply, size_t index, std::string_view history_key) {
    if (reply.size() > index && !reply[index].str().empty())
        log::info("could not record history in {}: {}", history_key, reply[index].str());
}

} // namespace dlock::redis
