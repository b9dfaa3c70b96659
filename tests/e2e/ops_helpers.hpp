#pragma once

// Helpers for the end-to-end tests of the ops commands (status, history, release --force,
// --min-hold).

#include "e2e/e2e_helpers.hpp"

namespace dlock::test::e2e {

inline std::string this_host() {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    return host;
}

// Starts `dlock [globals] run [run_options] NAME -c '<marks $D/NAME.held>; <waits for $D/go>'`
// and returns once it holds NAME.
inline std::unique_ptr<Process> start_holding(const RedisServer& server, const TempDir& dir,
                                              const std::string& name,
                                              std::vector<std::string> run_options = {}) {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), run_options.begin(), run_options.end());
    args.insert(args.end(), {name, "-c", "echo $$ > \"$D/" + name + ".held\"; " + kAwaitGo});
    auto holder = start(server, args, {{"D", dir.path()}});
    wait_for_line(dir / (name + ".held"));
    return holder;
}

// Lets every holder started by start_holding finish, and checks they exit 0.
inline void let_go(const TempDir& dir, std::vector<Process*> holders) {
    touch(dir / "go");
    for (auto* h : holders) {
        auto r = h->wait(15s);
        INFO("holder stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The lines of `text` that contain `part`.
inline std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
    std::vector<std::string> out;
    for (const auto& line : lines(text))
        if (contains(line, part))
            out.push_back(line);
    return out;
}

// The whitespace-separated columns of a table row.
inline std::vector<std::string> columns(const std::string& row) {
    std::istringstream in(row);
    std::vector<std::string> out;
    for (std::string word; in >> word;)
        out.push_back(word);
    return out;
}

} // namespace dlock::test::e2e
