#include "redis/transport/openssl_api.hpp"

#include "util/static_glibc.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <string>

namespace dlock::redis {
namespace {

// The soname of OpenSSL 3 (Debian 12: package libssl3); its ABI is stable across 3.x.
constexpr const char* kLibrary = "libssl.so.3";

Result<OpenSslApi> load() {
    // A static glibc cannot load shared objects safely: the static build hands every TLS URL
    // over to dlock-dynamic before it starts (process/dynamic_handover.hpp).
    if (is_static_build())
        return fail(Fault::unavailable, "TLS needs OpenSSL, which only dlock-dynamic can load");
    // RTLD_LOCAL: OpenSSL's symbols stay out of the global namespace. dlsym on the handle also
    // finds libcrypto's functions, since libssl depends on it.
    void* handle = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* why = ::dlerror();
        return fail(Fault::unavailable,
                    fmt::format("TLS needs OpenSSL 3, which could not be loaded: {} (Debian: "
                                "install the libssl3 package)",
                                why ? why : kLibrary));
    }
    OpenSslApi api;
    std::string missing;
#define DLOCK_OPENSSL_LOAD(name)                                                                   \
    api.name = reinterpret_cast<decltype(api.name)>(::dlsym(handle, #name));                       \
    if (api.name == nullptr && missing.empty())                                                    \
        missing = #name;
    DLOCK_OPENSSL_FUNCTIONS(DLOCK_OPENSSL_LOAD)
#undef DLOCK_OPENSSL_LOAD
    if (!missing.empty()) {
        ::dlclose(handle);
        return fail(
            Fault::unavailable,
            fmt::format("TLS needs OpenSSL 3, but the {} found lacks {}", kLibrary, missing));
    }
    return api; // the handle stays open for the life of the process
}

} // namespace

Result<const OpenSslApi*> openssl_api() {
    static const Result<OpenSslApi> loaded = load(); // thread-safe, once
    if (!loaded)
        return tl::unexpected(loaded.error());
    return &*loaded;
}

std::string openssl_reason(const OpenSslApi& api, unsigned long code) {
    if (const char* reason = api.ERR_reason_error_string(code))
        return reason;
    char text[256];
    api.ERR_error_string_n(code, text, sizeof text);
    return text;
}

} // namespace dlock::redis
