#include "redis/transport/tls_context.hpp"

#include "util/small_file.hpp"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <utility>
#include <vector>

namespace dlock::redis {
namespace {

// OpenSSL would otherwise ask for the passphrase of an encrypted key on the terminal.
int refuse_passphrase(char* /*buf*/, int /*size*/, int /*rwflag*/, void* /*userdata*/) {
    return 0;
}

// What a file is for, in error messages: "TLS CA file /x (--tls-ca-file)".
struct File {
    const char* what;
    const char* option;
    const std::string& path;
};

// OpenSSL opens the files itself, with a blocking open(2): each is checked first to be a
// readable regular file, so that a FIFO is refused instead of blocking dlock with no bound.
Result<void> check_readable(const File& file, bool directory) {
    if (directory) {
        if (DIR* dir = ::opendir(file.path.c_str())) {
            ::closedir(dir);
            return {};
        }
    } else if (const int fd = open_regular_file(file.path); fd >= 0) {
        ::close(fd);
        return {};
    }
    return usage_error(fmt::format("cannot read {} {}: {} ({})", file.what, file.path,
                                   file_error_text(errno), file.option));
}

// The first queued OpenSSL error's reason; the queue is emptied.
std::string take_reason(const OpenSslApi& api) {
    const unsigned long first = api.ERR_get_error();
    api.ERR_clear_error();
    return first == 0 ? "unknown error" : openssl_reason(api, first);
}

Error load_error(const OpenSslApi& api, const File& file) {
    return Error{Fault::bad_input, fmt::format("cannot load {} {}: {} ({})", file.what, file.path,
                                               take_reason(api), file.option)};
}

struct ContextFree {
    const OpenSslApi* api;
    void operator()(SSL_CTX* ctx) const { api->SSL_CTX_free(ctx); }
};
using ContextPtr = std::unique_ptr<SSL_CTX, ContextFree>;

Result<void> load_trust(const OpenSslApi& api, SSL_CTX* ctx, const TlsOptions& options) {
    api.SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    if (options.ca_file.empty() && options.ca_dir.empty()) {
        if (api.SSL_CTX_set_default_verify_paths(ctx) != 1)
            return fail(Fault::internal, fmt::format("cannot use the system's CA certificates: {}",
                                                     take_reason(api)));
        return {};
    }
    const File ca_file{"TLS CA file", "--tls-ca-file", options.ca_file};
    const File ca_dir{"TLS CA directory", "--tls-ca-dir", options.ca_dir};
    if (!options.ca_file.empty())
        TRY(check_readable(ca_file, false));
    if (!options.ca_dir.empty())
        TRY(check_readable(ca_dir, true));
    if (api.SSL_CTX_load_verify_locations(
            ctx, options.ca_file.empty() ? nullptr : options.ca_file.c_str(),
            options.ca_dir.empty() ? nullptr : options.ca_dir.c_str()) != 1)
        return tl::unexpected(load_error(api, options.ca_file.empty() ? ca_dir : ca_file));
    return {};
}

Result<void> load_identity(const OpenSslApi& api, SSL_CTX* ctx, const TlsOptions& options) {
    const File cert{"TLS client certificate", "--tls-cert", options.cert_file};
    const File key{"TLS private key", "--tls-key", options.key_file};
    TRY(check_readable(cert, false));
    TRY(check_readable(key, false));
    if (api.SSL_CTX_use_certificate_chain_file(ctx, options.cert_file.c_str()) != 1)
        return tl::unexpected(load_error(api, cert));
    if (api.SSL_CTX_use_PrivateKey_file(ctx, options.key_file.c_str(), SSL_FILETYPE_PEM) != 1)
        return tl::unexpected(load_error(api, key));
    if (api.SSL_CTX_check_private_key(ctx) != 1) {
        api.ERR_clear_error();
        return usage_error(fmt::format("the TLS private key {} does not belong to the client "
                                       "certificate {} (--tls-key, --tls-cert)",
                                       options.key_file, options.cert_file));
    }
    return {};
}

Result<ContextPtr> make_context(const OpenSslApi& api, const TlsOptions& options) {
    api.ERR_clear_error();
    ContextPtr ctx(api.SSL_CTX_new(api.TLS_client_method()), ContextFree{&api});
    if (!ctx)
        return fail(Fault::internal,
                    fmt::format("cannot create a TLS context: {}", take_reason(api)));
    api.SSL_CTX_ctrl(ctx.get(), SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, nullptr);
    api.SSL_CTX_set_default_passwd_cb(ctx.get(), refuse_passphrase);
    if (options.insecure)
        api.SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
    else
        TRY(load_trust(api, ctx.get(), options));
    if (!options.cert_file.empty() || !options.key_file.empty())
        TRY(load_identity(api, ctx.get(), options));
    return ctx;
}

} // namespace

Result<SSL_CTX*> tls_context(const OpenSslApi& api, const TlsOptions& options) {
    // One process uses one set of options (tests use several): a short list, never pruned and
    // never destroyed: OpenSSL cleans itself up at exit (atexit), and freeing a context after
    // that, from a static destructor, would be a use after free.
    static std::mutex mutex;
    static auto* contexts = new std::vector<std::pair<TlsOptions, SSL_CTX*>>();
    const std::lock_guard lock(mutex);
    for (const auto& [known, ctx] : *contexts)
        if (known == options)
            return ctx;
    TRY_ASSIGN(auto ctx, make_context(api, options));
    contexts->emplace_back(options, ctx.release());
    return contexts->back().second;
}

} // namespace dlock::redis
