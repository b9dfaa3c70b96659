#include "util/user_name.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <unistd.h>

using dlock::user_in_passwd;

TEST_CASE("user_in_passwd finds the name for a uid", "[user]") {
    const char* passwd = "root:x:0:0:root:/root:/bin/bash\n"
                         "# not a record\n"
                         "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
                         "broken\n"
                         ":x:7:7::/:/bin/sh\n"
                         "alice:x:1000:1000:Alice:/home/alice:/bin/bash";
    CHECK(user_in_passwd(passwd, 0) == "root");
    CHECK(user_in_passwd(passwd, 1) == "daemon");
    CHECK(user_in_passwd(passwd, 1000) == "alice"); // last line without a newline
    CHECK(user_in_passwd(passwd, 7).empty());       // empty names are not names
    CHECK(user_in_passwd(passwd, 100).empty());
    CHECK(user_in_passwd("", 0).empty());
    CHECK(user_in_passwd("bob:x:10x:1::/:/bin/sh\n", 10).empty()); // uid must be all digits
}

TEST_CASE("current_user_name prefers LOGNAME, then the passwd entry", "[user]") {
    const char* saved = std::getenv("LOGNAME");
    const std::string restore = saved ? saved : "";
    setenv("LOGNAME", "cron-user", 1);
    CHECK(dlock::current_user_name() == "cron-user");
    unsetenv("LOGNAME");
    const std::string name = dlock::current_user_name();
    CHECK(!name.empty());
    if (geteuid() == 0)
        CHECK(name == "root");
    if (saved)
        setenv("LOGNAME", restore.c_str(), 1);
}

TEST_CASE("passwd_from_files_only is true only when passwd is looked up in files alone", "[user]") {
    using dlock::passwd_from_files_only;
    CHECK(passwd_from_files_only("passwd: files\n"));
    CHECK(passwd_from_files_only("# c\npasswd:\tfiles  # local only\nhosts: files dns\n"));
    CHECK(passwd_from_files_only("passwd: files [NOTFOUND=return]\n"));
    CHECK_FALSE(passwd_from_files_only("passwd: files systemd\n"));
    CHECK_FALSE(passwd_from_files_only("passwd: sss files\n"));
    CHECK_FALSE(passwd_from_files_only("passwd: compat\n"));
    CHECK_FALSE(passwd_from_files_only("passwd:\n"));
    CHECK_FALSE(passwd_from_files_only("hosts: files dns\n")); // no line: glibc's default
    CHECK_FALSE(passwd_from_files_only(""));
}
