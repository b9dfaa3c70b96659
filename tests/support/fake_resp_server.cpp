#include "support/fake_resp_server.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace dlock::test {
namespace {

constexpr size_t kStreamChunk = 64 * 1024;

void non_blocking(int fd) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// The number after a type byte up to "\r\n" at `at`; nullopt when the line is incomplete.
std::optional<long> read_number(const std::string& buffer, size_t& at) {
    const size_t end = buffer.find("\r\n", at);
    if (end == std::string::npos)
        return std::nullopt;
    const long value = std::strtol(buffer.c_str() + at + 1, nullptr, 10);
    at = end + 2;
    return value;
}

} // namespace

std::vector<std::vector<std::string>> take_commands(std::string& buffer) {
    std::vector<std::vector<std::string>> out;
    for (;;) {
        size_t at = 0;
        if (buffer.empty() || buffer[0] != '*')
            return out;
        const auto count = read_number(buffer, at);
        if (!count)
            return out;
        std::vector<std::string> command;
        for (long i = 0; i < *count; ++i) {
            const auto length = read_number(buffer, at);
            if (!length || buffer.size() < at + static_cast<size_t>(*length) + 2)
                return out;
            command.push_back(buffer.substr(at, static_cast<size_t>(*length)));
            at += static_cast<size_t>(*length) + 2;
        }
        buffer.erase(0, at);
        out.push_back(std::move(command));
    }
}

struct FakeRespServer::Client {
    int fd = -1;
    std::string input, output;
    bool stream = false, close_after = false;
    ~Client() { ::close(fd); }
};

FakeRespServer::FakeRespServer(Script answer) : answer_(std::move(answer)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        ::listen(listener_, 64) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
        ::pipe2(wake_, O_CLOEXEC) != 0)
        throw std::runtime_error("fake RESP server: cannot listen");
    port_ = ntohs(addr.sin_port);
    non_blocking(listener_);
    thread_ = std::thread([this] { serve(); });
}

FakeRespServer::~FakeRespServer() {
    (void)!::write(wake_[1], "x", 1);
    thread_.join();
    ::close(listener_);
    ::close(wake_[0]);
    ::close(wake_[1]);
}

// Reads what the client sent and queues the answers; false when the client is gone.
bool FakeRespServer::handle_input(Client& client) {
    char buffer[16 * 1024];
    const ssize_t n = ::recv(client.fd, buffer, sizeof buffer, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
        return false;
    if (n > 0)
        client.input.append(buffer, static_cast<size_t>(n));
    for (const auto& command : take_commands(client.input)) {
        if (client.stream || client.close_after)
            break; // it said its last word
        FakeAnswer answer = answer_(command);
        ++commands_;
        client.output += answer.bytes;
        client.stream = answer.stream;
        client.close_after = answer.close && !answer.stream;
    }
    return true;
}

// Writes what is queued (and garbage when streaming); false when the connection is done.
bool FakeRespServer::flush(Client& client) {
    if (client.output.empty() && client.stream)
        client.output.assign(kStreamChunk, 'x');
    while (!client.output.empty()) {
        const ssize_t n =
            ::send(client.fd, client.output.data(), client.output.size(), MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN || errno == EINTR;
        client.output.erase(0, static_cast<size_t>(n));
    }
    return !client.close_after;
}

void FakeRespServer::serve() {
    std::vector<std::unique_ptr<Client>> clients;
    for (;;) {
        std::vector<pollfd> fds{{wake_[0], POLLIN, 0}, {listener_, POLLIN, 0}};
        for (const auto& c : clients) {
            const bool writing = !c->output.empty() || c->stream;
            fds.push_back({c->fd, static_cast<short>(POLLIN | (writing ? POLLOUT : 0)), 0});
        }
        if (::poll(fds.data(), fds.size(), 1000) < 0 && errno != EINTR)
            return;
        if (fds[0].revents != 0)
            return;
        if (fds[1].revents & POLLIN) {
            const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (fd >= 0) {
                clients.push_back(std::make_unique<Client>());
                clients.back()->fd = fd;
            }
        }
        std::vector<std::unique_ptr<Client>> kept;
        for (size_t i = 0; i + 2 < fds.size(); ++i) {
            auto& client = clients[i];
            const short events = fds[i + 2].revents;
            bool alive = true;
            if (events & (POLLIN | POLLHUP | POLLERR))
                alive = handle_input(*client);
            if (alive && (events & POLLOUT || !client->output.empty()))
                alive = flush(*client);
            if (alive)
                kept.push_back(std::move(client));
        }
        for (size_t i = fds.size() - 2; i < clients.size(); ++i)
            kept.push_back(std::move(clients[i])); // accepted just now
        clients = std::move(kept);
    }
}

} // namespace dlock::test
