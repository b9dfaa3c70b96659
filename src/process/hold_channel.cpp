#include "process/hold_channel.hpp"

#include "util/random.hpp"

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dlock::process {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kHoldIdLength = 32;
constexpr size_t kMaxLine = 4096;

// The abstract socket of `hold` (a leading NUL: no file, gone with the last descriptor).
socklen_t address_of(const std::string& hold, sockaddr_un& address) {
    address = {};
    address.sun_family = AF_UNIX;
    const std::string name = "dlock-hold/" + hold;
    std::memcpy(address.sun_path + 1, name.data(), name.size());
    return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
}

int remaining_ms(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now()).count();
    return static_cast<int>(std::max<int64_t>(0, left));
}

// Reads up to the first newline, until `deadline`; nullopt on EOF, error or timeout first.
std::optional<std::string> read_line(int fd, Clock::time_point deadline) {
    std::string line;
    while (line.find('\n') == std::string::npos && line.size() < kMaxLine) {
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, remaining_ms(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return std::nullopt;
        char buffer[512];
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return std::nullopt;
        line.append(buffer, static_cast<size_t>(n));
    }
    const size_t end = line.find('\n');
    if (end == std::string::npos)
        return std::nullopt;
    return line.substr(0, end);
}

// A pid in decimal digits, as "release PID" sends it.
std::optional<pid_t> parse_pid(const std::string& text) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const long pid = std::stol(text);
    return pid > 0 ? std::optional<pid_t>(static_cast<pid_t>(pid)) : std::nullopt;
}

// "release[ PID][ status N]": what it asks, into `request`.
void parse_request(const std::string& line, HoldRequest& request) {
    std::vector<std::string> words;
    for (size_t at = 0; at <= line.size();) {
        const size_t space = std::min(line.find(' ', at), line.size());
        words.push_back(line.substr(at, space - at));
        at = space + 1;
    }
    request.owner_query = words.size() == 1 && words[0] == "owner";
    request.release = !words.empty() && words[0] == "release";
    size_t next = 1;
    if (next < words.size() && words[next] != "status") {
        const auto pid = parse_pid(words[next++]);
        request.release = request.release && pid.has_value();
        request.from_script = pid.value_or(0);
    }
    if (next < words.size()) {
        const bool given = next + 2 == words.size() && words[next] == "status";
        const std::string& n = given ? words[next + 1] : words[next];
        const bool digits = given && !n.empty() && n.size() <= 3 &&
                            n.find_first_not_of("0123456789") == std::string::npos;
        request.release = request.release && digits && std::stoi(n) <= 255;
        if (request.release)
            request.status = std::stoi(n);
    }
}

std::optional<ucred> peer(int fd) {
    ucred cred{};
    socklen_t size = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0)
        return std::nullopt;
    return cred;
}

std::optional<uid_t> peer_uid(int fd) {
    const auto cred = peer(fd);
    return cred ? std::optional<uid_t>(cred->uid) : std::nullopt;
}

bool same_user_or_root(uid_t uid) {
    return uid == getuid() || uid == 0;
}

// Connected to the keeper of `hold`; -1 when nothing listens there.
Result<int> connect_keeper(const std::string& hold, Clock::time_point deadline) {
    sockaddr_un address;
    const socklen_t size = address_of(hold, address);
    for (;;) {
        const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
            return fail(Fault::internal, fmt::format("socket: {}", strerror(errno)));
        if (connect(fd, reinterpret_cast<sockaddr*>(&address), size) == 0)
            return fd;
        const int error = errno;
        close(fd);
        if (error == ECONNREFUSED || error == ENOENT)
            return -1;
        if (error != EAGAIN) // EAGAIN: its backlog is full (a few releases at once)
            return fail(Fault::internal, fmt::format("cannot reach the keeper of hold {}: {}", hold,
                                                     strerror(error)));
        if (Clock::now() >= deadline)
            return fail(Fault::unavailable,
                        fmt::format("the keeper of hold {} did not answer", hold));
        std::this_thread::sleep_for(Millis(10));
    }
}

} // namespace

std::string new_hold_id() {
    return random_hex(kHoldIdLength / 2);
}

bool valid_hold_id(std::string_view id) {
    if (id.size() != kHoldIdLength)
        return false;
    for (char c : id)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

Result<int> listen_for_hold(const std::string& hold) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return fail(Fault::internal,
                    fmt::format("cannot open the keeper's socket: {}", strerror(errno)));
    sockaddr_un address;
    const socklen_t size = address_of(hold, address);
    if (bind(fd, reinterpret_cast<sockaddr*>(&address), size) != 0 || listen(fd, 8) != 0) {
        const int error = errno;
        close(fd);
        return fail(Fault::internal,
                    fmt::format("cannot listen on the keeper's socket: {}", strerror(error)));
    }
    return fd;
}

HoldRequest accept_hold_request(int listener, Millis wait) {
    HoldRequest request;
    request.fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (request.fd < 0)
        return request;
    const auto uid = peer_uid(request.fd);
    request.uid = uid.value_or(static_cast<uid_t>(-1));
    request.pid = peer(request.fd).value_or(ucred{}).pid;
    request.allowed = uid && same_user_or_root(*uid);
    if (!request.allowed) { // answered without a read: another user cannot hold the keeper up
        request.release = true;
        return request;
    }
    parse_request(read_line(request.fd, Clock::now() + wait).value_or(""), request);
    return request;
}

void answer_hold_request(HoldRequest& request, int status, std::string_view message) {
    if (request.fd < 0)
        return;
    std::string text(message);
    for (char& c : text) // one line, whatever the owner's command line holds
        if (c == '\n' || c == '\r')
            c = ' ';
    const std::string line = fmt::format("{}\t{}\n", status, text);
    // A short line fits the socket buffer of a fresh connection: one write, no wait.
    (void)send(request.fd, line.data(), line.size(), MSG_NOSIGNAL);
    close(request.fd);
    request.fd = -1;
}

namespace {

// Sends `request` (one line) to the keeper of `hold` and reads its answer; nullopt: no keeper.
Result<std::optional<HoldAnswer>> exchange(const std::string& hold, Millis wait,
                                           const std::string& request) {
    const auto deadline = Clock::now() + wait;
    TRY_ASSIGN(const int fd, connect_keeper(hold, deadline));
    if (fd == -1)
        return std::nullopt;
    const auto uid = peer_uid(fd);
    // Root may release any user's hold; anyone else only a keeper of their own (or root's).
    if (!uid || (geteuid() != 0 && !same_user_or_root(*uid))) {
        close(fd);
        if (!uid)
            return std::nullopt;
        return usage_error(
            fmt::format("hold {} belongs to another user (uid {}): only that user or "
                        "root may release it",
                        hold, *uid));
    }
    // Read the answer even when the send failed: a keeper refusing another user answers
    // without reading, and may have closed before the request went out (EPIPE).
    (void)!send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    const auto line = read_line(fd, deadline);
    close(fd);
    if (!line && Clock::now() < deadline) // closed unanswered: it had just released and ended
        return std::nullopt;
    const size_t tab = line ? line->find('\t') : std::string::npos;
    if (tab == std::string::npos)
        return fail(Fault::unavailable,
                    fmt::format("the keeper of hold {} did not answer within {}", hold,
                                format_duration(wait)));
    HoldAnswer answer;
    answer.message = line->substr(tab + 1);
    try {
        answer.status = std::stoi(line->substr(0, tab));
    } catch (const std::exception&) {
        return fail(Fault::internal, fmt::format("the keeper of hold {} answered {}", hold, *line));
    }
    return answer;
}

} // namespace

Result<std::optional<HoldAnswer>> ask_keeper(const std::string& hold, Millis wait,
                                             pid_t from_script, std::optional<int> status) {
    std::string request = "release";
    if (from_script > 0)
        request += fmt::format(" {}", from_script);
    if (status)
        request += fmt::format(" status {}", *status);
    return exchange(hold, wait, request + "\n");
}

Result<std::optional<HoldKeeping>> ask_holder(const std::string& hold, Millis wait) {
    TRY_ASSIGN(const auto answer, exchange(hold, wait, "owner\n"));
    if (!answer)
        return std::nullopt;
    HoldKeeping keeping;
    if (answer->status != 0 ||
        sscanf(answer->message.c_str(), "%d %d", &keeping.owner, &keeping.script) != 2)
        return fail(Fault::internal,
                    fmt::format("the keeper of hold {} answered {}", hold, answer->message));
    return keeping;
}

} // namespace dlock::process
