#include "support/redis_process.hpp"

#include "support/dlock_process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace dlock::test {
namespace {

std::optional<std::string> find_in_path() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    dirs += ":/usr/sbin:/usr/local/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        std::string candidate = dirs.substr(start, end - start) + "/redis-server";
        if (access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

// A socket bound to `port` of 127.0.0.1 (0: any free one); -1 when that port is taken.
int bound_socket(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

} // namespace

bool redis_required() {
    const char* ci = std::getenv("CI");
    return ci && *ci && std::string(ci) != "0" && std::string(ci) != "false";
}

int free_tcp_port() {
    const int fd = bound_socket(0);
    sockaddr_in addr{};
    socklen_t len = sizeof addr;
    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    close(fd);
    return ntohs(addr.sin_port);
}

bool tcp_port_free(int port) {
    const int fd = bound_socket(port);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

std::optional<std::string> redis_server_binary() {
    return find_in_path();
}

void RedisProcess::make_dir(const char* prefix) {
    std::string tmpl = std::string(prefix) + "XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    dir_ = tmpl;
}

void RedisProcess::launch_on_free_port() {
    for (int attempt = 0; attempt < 5; ++attempt) {
        port_ = free_tcp_port();
        if (launch())
            return;
    }
    FAIL("could not start redis-server in " << dir_);
}

bool RedisProcess::launch() {
    static const std::string binary = *redis_server_binary();
    std::vector<std::string> args = arguments();
    args.insert(args.begin(), binary);
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ == 0) {
        // Dies with the test: a test that crashes leaves no servers running.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        std::vector<char*> argv;
        for (auto& arg : args)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        execv(binary.c_str(), argv.data());
        _exit(127);
    }
    REQUIRE(pid_ > 0);
    const bool up = eventually(
        [&] {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) { // died: port taken?
                pid_ = -1;
                return true;
            }
            auto conn = redis::Connection::open(connect_options());
            return conn && conn->command({"PING"}).has_value();
        },
        std::chrono::seconds(10));
    if (up && pid_ > 0)
        return true;
    crash(); // never answered: not left behind while another port is tried
    return false;
}

RedisProcess::~RedisProcess() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void RedisProcess::pause() const {
    kill(pid_, SIGSTOP);
}

void RedisProcess::resume() const {
    kill(pid_, SIGCONT);
}

void RedisProcess::end(int signo) {
    if (pid_ <= 0)
        return;
    kill(pid_, SIGCONT);
    kill(pid_, signo);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

void RedisProcess::stop() {
    end(SIGTERM);
}

void RedisProcess::crash() {
    end(SIGKILL);
}

void RedisProcess::restart() {
    stop();
    // The port was ours a moment ago; another process may take it meanwhile, rarely.
    REQUIRE(eventually([&] { return launch(); }, std::chrono::seconds(20)));
}

redis::Connection RedisProcess::connect() const {
    auto conn = redis::Connection::open(connect_options());
    if (!conn)
        FAIL("cannot connect to the test server at " << address() << ": " << conn.error().message);
    return std::move(*conn);
}

Result<redis::Reply> RedisProcess::try_cmd(std::initializer_list<std::string_view> args) const {
    TRY_ASSIGN(auto conn, redis::Connection::open(connect_options()));
    return conn.command(args);
}

redis::Reply RedisProcess::cmd(std::initializer_list<std::string_view> args) const {
    auto reply = try_cmd(args);
    if (!reply)
        FAIL("command " << *args.begin() << " failed on " << address() << ": "
                        << reply.error().message);
    return std::move(*reply);
}

std::string RedisProcess::info(std::string_view section, std::string_view field) const {
    auto reply = try_cmd({"INFO", section});
    if (!reply)
        return "";
    const std::string text(reply->str());
    const std::string wanted = std::string(field) + ":";
    for (size_t start = 0; start < text.size();) {
        const size_t end = std::min(text.find("\r\n", start), text.size());
        if (text.compare(start, wanted.size(), wanted) == 0)
            return text.substr(start + wanted.size(), end - start - wanted.size());
        start = end + 2;
    }
    return "";
}

} // namespace dlock::test
