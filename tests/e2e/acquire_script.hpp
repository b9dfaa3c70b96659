#pragma once

// The scripts of the `dlock acquire` tests: a shell running `eval "$(dlock acquire ...)"`.

#include "e2e/e2e_helpers.hpp"

namespace dlock::test::e2e {

// `body` run by `shell` with $DLOCK (the binary), $D (the scratch directory) and the server.
inline std::unique_ptr<Process> script(const RedisServer& server, const TempDir& dir,
                                       const std::string& body,
                                       const std::string& shell = "/bin/sh") {
    return std::make_unique<Process>(std::vector<std::string>{"-c", body},
                                     clean_env({{"DLOCK", dlock_binary()},
                                                {"D", dir.path()},
                                                {"DLOCK_REDIS_URL", server.url()},
                                                {"DLOCK_HOLD", "\x01unset"},
                                                {"DLOCK_KEEPER_PID", "\x01unset"}}),
                                     shell);
}

} // namespace dlock::test::e2e
