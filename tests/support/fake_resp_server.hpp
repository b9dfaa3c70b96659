#pragma once

// A stand-in for a Redis server that says whatever a test wants: it listens on a free loopback
// TCP port, reads commands (RESP arrays of bulk strings) on its own thread from any number of
// clients, and answers each with the bytes a script returns, which may be no RESP at all. For
// tests of what dlock does with a broken or hostile server.

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace dlock::test {

// What the server does after one command.
struct FakeAnswer {
    std::string bytes;   // sent first
    bool stream = false; // then garbage bytes without end, as fast as the client reads
    bool close = false;  // then closes the connection (after `bytes`; not with `stream`)
};

class FakeRespServer {
  public:
    // `answer` is called on the server's thread for each command, in order of arrival.
    using Script = std::function<FakeAnswer(const std::vector<std::string>& command)>;
    explicit FakeRespServer(Script answer);
    ~FakeRespServer(); // stops the thread, closes every connection
    FakeRespServer(const FakeRespServer&) = delete;
    FakeRespServer& operator=(const FakeRespServer&) = delete;

    int port() const { return port_; }
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    int commands() const { return commands_; } // answered so far

  private:
    struct Client;
    void serve();
    bool handle_input(Client& client);
    bool flush(Client& client);

    Script answer_;
    int listener_ = -1;
    int port_ = 0;
    int wake_[2] = {-1, -1}; // a pipe: the destructor writes to stop the thread
    std::atomic<int> commands_{0};
    std::thread thread_;
};

// Splits complete commands off the front of `buffer` (RESP arrays of bulk strings, as clients
// send them); whatever is incomplete stays.
std::vector<std::vector<std::string>> take_commands(std::string& buffer);

} // namespace dlock::test
