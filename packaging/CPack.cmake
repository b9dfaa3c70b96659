# The Debian package: `scripts/package.sh` (or `cpack -G DEB` in a configured build directory).
# dlock links hiredis and libstdc++ statically (and /usr/bin/dlock libc too), so the only
# run-time dependency is libc, which dpkg-shlibdeps works out from
# /usr/libexec/dlock/dlock-dynamic. OpenSSL 3 is loaded with dlopen, only for rediss://
# URLs (src/redis/transport/openssl_api.cpp), so dpkg-shlibdeps cannot see it: libssl3 is recommended, not
# a dependency, since plain users never load it (apt installs recommendations by default, and
# Debian 12 has libssl3 everywhere: apt needs it). Redis itself usually runs on another host: it
# is suggested, not recommended. bash-completion is suggested: it is what loads the bash
# completion the package installs (zsh and fish find theirs without it).

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dlock)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "dlock maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "distributed locks on Redis for shell scripts and cron jobs")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(DLOCK_DEB_MAINTAINER
    "dlock maintainers <maintainers@users.noreply.a-seed-471d7ab8.example>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${DLOCK_DEB_MAINTAINER})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # dlock_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libssl3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, redis-server, redis-tools")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The extended description, below the summary line (CPack indents it).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "dlock runs a command while holding a named lease in Redis, renewed by a
watchdog and released when the command exits, so that a cron job installed
on several hosts runs on one of them at a time. It also offers shared locks,
semaphores, count-down latches, fair (first come, first served) waiting,
fencing tokens, and status and history commands for operators.")

find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "dpkg-shlibdeps not found: the .deb will depend on libc6 (>= 2.34) as written")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34)")
endif()

include(CPack)
