#pragma once

#include <string>
#include <string_view>

namespace dlock {

// 'text' in single quotes, with control and non-ASCII bytes escaped (\n, \x1b), so that a
// message quoting user input always stays on one line; credentials in it are redacted as by
// redact_credentials (a URL's password must not reach a message however it was misplaced).
std::string quote(std::string_view text);

// `text` with control bytes escaped (\n, \t, \x1b), and the bytes of C1 controls, of
// bidirectional overrides and of anything that is not well-formed UTF-8 as \xNN; everything else
// as is (UTF-8 stays readable): a value from Redis that cannot break a table row or a line, act
// on a terminal, or make a consumer that wants UTF-8 (a Prometheus scraper) reject the output.
std::string one_line(std::string_view text);

// `value` with its secrets replaced by "***": the credentials of a URL (everything between the
// first "://" and the last '@': "redis://***@host"), and the value of a password-like option
// ("--password=***"; see is_secret_option). Unchanged when it has neither.
std::string redact_credentials(std::string_view value);

// True for an option whose value is a secret: --password, --redis-password, --auth, --token,
// --secret, --api-key (with or without "=VALUE"), but not --password-file, which names a file.
bool is_secret_option(std::string_view arg);

// redact_credentials applied to each whitespace-separated word of `message`.
std::string redact_credentials_in(std::string_view message);

} // namespace dlock
