#pragma once

#include "app/target.hpp"
#include "lock/compat.hpp"
#include "lock/store.hpp"
#include "util/error.hpp"

#include <string>

namespace dlock::app {

// `dlock status --compat FORMAT NAME`: the other library's key NAME, one line: free, held in
// FORMAT (the owner field or value, Redisson's reentrant count, the lease left), or a key of
// another type. 0 when the name is in use (a key of another type too: a --compat run would be
// refused), exit_code::nothing when it is free.
Result<int> compat_status(lock::Store& store, const Target& target, lock::CompatFormat format,
                          const std::string& name);

// `dlock release --force --compat FORMAT NAME`: deletes the other library's lock NAME whoever
// holds it (Redisson's waiters get the unlock message), recorded in dlock's history of NAME.
// 0 when it broke it, exit_code::nothing when NAME was free or a key of another type (left
// alone). The holders notice at their next renewal.
Result<int> compat_force_release(lock::Store& store, const Target& target,
                                 lock::CompatFormat format, const std::string& name);

} // namespace dlock::app
