#include "support/tls_server.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace dlock::test {
namespace {

bool have_openssl() {
    return std::system("command -v openssl >/dev/null 2>&1") == 0;
}

// The openssl commands, as one shell script run in the directory.
constexpr const char* kMakeCertificates = R"(set -e
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
ca() {
    key "$1.key"
    openssl req -x509 -new -key "$1.key" -sha256 -days 3650 -subj "/CN=$2" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign \
        -out "$1.crt" 2>/dev/null
}
# signed NAME CN EXTENSIONS: a certificate signed by the test CA
signed() {
    key "$1.key"
    openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr" 2>/dev/null
    printf '%s\n' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
        -sha256 -extfile "$1.ext" -out "$1.crt" 2>/dev/null
}
ca ca "dlock test CA"
ca other-ca "dlock other CA"
signed server localhost "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth"
signed client "dlock test client" "extendedKeyUsage=clientAuth"
)";

// The files in `dir`.
TlsFiles files_in(const std::string& dir) {
    return TlsFiles{dir,
                    dir + "/ca.crt",
                    dir + "/server.crt",
                    dir + "/server.key",
                    dir + "/client.crt",
                    dir + "/client.key",
                    dir + "/other-ca.crt"};
}

// Makes the certificates once per build tree (ctest runs each test case in its own process):
// in a temp dir renamed into place, so concurrent test processes never see half a set.
std::optional<TlsFiles> make_certificates() {
    const std::string dir = DLOCK_TLS_CERT_DIR;
    if (std::filesystem::exists(dir + "/client.key"))
        return files_in(dir);
    if (!have_openssl())
        return std::nullopt;
    std::string tmpl = dir + ".XXXXXX";
    std::filesystem::create_directories(std::filesystem::path(dir).parent_path());
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    std::ofstream(tmpl + "/make.sh") << kMakeCertificates;
    const std::string command = "cd '" + tmpl + "' && sh ./make.sh";
    REQUIRE(std::system(command.c_str()) == 0);
    if (std::rename(tmpl.c_str(), dir.c_str()) != 0) { // another process was first
        std::error_code ec;
        std::filesystem::remove_all(tmpl, ec);
    }
    REQUIRE(std::filesystem::exists(dir + "/client.key"));
    return files_in(dir);
}

} // namespace

const TlsFiles* tls_files() {
    static const std::optional<TlsFiles> files = make_certificates();
    return files ? &*files : nullptr;
}

std::unique_ptr<RedisServer> start_tls_redis(const std::string& auth_clients) {
    const TlsFiles* files = tls_files();
    if (files == nullptr)
        return nullptr;
    // A TLS connection the server has closed makes OpenSSL's write(2) raise SIGPIPE; dlock
    // ignores it (cli/main.cpp), and so must the test binaries that use TLS connections.
    std::signal(SIGPIPE, SIG_IGN);
    return RedisServer::start([files, auth_clients](int port) {
        std::vector<std::string> args = {"--port", "0", "--tls-port", std::to_string(port)};
        args.insert(args.end(), {"--tls-cert-file", files->server_cert});
        args.insert(args.end(), {"--tls-key-file", files->server_key});
        args.insert(args.end(), {"--tls-ca-cert-file", files->ca});
        args.insert(args.end(), {"--tls-auth-clients", auth_clients});
        return args;
    });
}

std::string tls_url(const RedisServer& server, const std::string& host) {
    return "rediss://" + host + ":" + std::to_string(server.port());
}

redis::ConnectOptions tls_options(const RedisServer& server, bool client_cert) {
    redis::ConnectOptions options;
    options.endpoint.host = "127.0.0.1";
    options.endpoint.port = server.port();
    options.endpoint.tls = true;
    options.tls.ca_file = tls_files()->ca;
    if (client_cert) {
        options.tls.cert_file = tls_files()->client_cert;
        options.tls.key_file = tls_files()->client_key;
    }
    return options;
}

TlsSentinel::TlsSentinel(const RedisServer& master) {
    const TlsFiles& files = *tls_files();
    char tmpl[] = "/tmp/dlock-sentinel-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    dir_ = tmpl;
    for (int attempt = 0; attempt < 5 && !process_; ++attempt) {
        port_ = free_tcp_port();
        // Sentinel rewrites its configuration file: it must be its own and writable.
        std::ofstream(dir_ + "/sentinel.conf")
            << "port 0\nbind 127.0.0.1\ntls-port " << port_ << "\ntls-cert-file "
            << files.server_cert << "\ntls-key-file " << files.server_key << "\ntls-ca-cert-file "
            << files.ca << "\ntls-replication yes\n"
            << "tls-auth-clients no\ndir " << dir_ << "\nlogfile " << dir_
            << "/sentinel.log\nsentinel monitor m 127.0.0.1 " << master.port() << " 1\n";
        auto process = std::make_unique<Process>(
            std::vector<std::string>{"-c", "exec redis-server \"$0\" --sentinel",
                                     dir_ + "/sentinel.conf"},
            Env{}, "/bin/sh");
        redis::ConnectOptions options;
        options.endpoint.host = "127.0.0.1";
        options.endpoint.port = port_;
        options.endpoint.tls = true;
        options.tls.ca_file = files.ca;
        const bool up = eventually(
            [&] {
                auto conn = redis::Connection::open(options);
                return conn && conn->command({"PING"}).has_value();
            },
            std::chrono::seconds(10));
        if (up)
            process_ = std::move(process);
    }
    if (!process_)
        FAIL("could not start a TLS sentinel in " << dir_);
}

TlsSentinel::~TlsSentinel() {
    process_.reset(); // SIGKILL, reaped
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

} // namespace dlock::test
