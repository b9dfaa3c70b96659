#pragma once

#include <string_view>

namespace dlock {

// Writes all of `text` to `fd`, retrying EINTR and short writes (one write() when the file takes
// it all). 0 on success, else the errno of the failed write (EIO for a write that took nothing);
// errno is left as that write set it.
int write_fully(int fd, std::string_view text);

} // namespace dlock
