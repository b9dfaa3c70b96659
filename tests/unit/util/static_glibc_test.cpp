#include "util/static_glibc.hpp"

#include <catch2/catch.hpp>

using dlock::nss_sources;
using dlock::unsafe_host_source;
using Sources = std::vector<std::string>;

TEST_CASE("nss_sources lists a database's sources without the actions", "[static]") {
    const char* conf = "# /etc/nsswitch.conf\n"
                       "passwd:         files systemd\n"
                       "hosts:  files mdns4_minimal [NOTFOUND=return] dns myhostname # note\n"
                       "networks: files\n";
    CHECK(nss_sources(conf, "passwd") == Sources{"files", "systemd"});
    CHECK(nss_sources(conf, "hosts") == Sources{"files", "mdns4_minimal", "dns", "myhostname"});
    CHECK(nss_sources(conf, "networks") == Sources{"files"});
    CHECK_FALSE(nss_sources(conf, "group").has_value());
    CHECK_FALSE(nss_sources(conf, "host").has_value()); // whole names only
    // An action glued to its neighbours, tabs, a carriage return, a commented-out line.
    CHECK(nss_sources("hosts:\tfiles[!UNAVAIL=return]dns\r\n", "hosts") == Sources{"files", "dns"});
    CHECK_FALSE(nss_sources("#hosts: files ldap\n", "hosts").has_value());
    // The last line for a database is the one that counts.
    CHECK(nss_sources("hosts: ldap\nhosts: files\n", "hosts") == Sources{"files"});
    CHECK(nss_sources("hosts:\n", "hosts") == Sources{});
}

TEST_CASE("only files and dns are built into a static glibc", "[static]") {
    CHECK(unsafe_host_source("hosts: files dns\n").empty());
    CHECK(unsafe_host_source("hosts: dns [!UNAVAIL=return] files\n").empty());
    CHECK(unsafe_host_source("").empty()); // no file: glibc's default, dns then files
    CHECK(unsafe_host_source("passwd: files systemd\n").empty());
    CHECK(unsafe_host_source("hosts: files mdns4_minimal [NOTFOUND=return] dns\n") ==
          "mdns4_minimal");
    CHECK(unsafe_host_source("hosts: resolve [!UNAVAIL=return] files myhostname dns\n") ==
          "resolve");
}

TEST_CASE("the unit tests are a dynamic build, IP literals are told from names", "[static]") {
    CHECK_FALSE(dlock::is_static_build());
    CHECK(dlock::is_ip_literal("127.0.0.1"));
    CHECK(dlock::is_ip_literal("::1"));
    CHECK(dlock::is_ip_literal("fd00::5"));
    CHECK_FALSE(dlock::is_ip_literal("localhost"));
    CHECK_FALSE(dlock::is_ip_literal("10.0.0"));
    CHECK_FALSE(dlock::is_ip_literal("redis.example"));
    CHECK_FALSE(dlock::is_ip_literal(""));
}
