# What `cmake --install` puts where (GNUInstallDirs; prefix /usr in the .deb):
#   bin/dlock
#   libexec/dlock/dlock-dynamic   (with DLOCK_STATIC: see process/dynamic_handover.hpp)
#   share/lintian/overrides/dlock (with DLOCK_STATIC)
#   share/man/man1/dlock.1.gz
#   share/bash-completion/completions/dlock
#   share/zsh/vendor-completions/_dlock
#   share/fish/vendor_completions.d/dlock.fish
#   share/doc/dlock/{README.md,dlock.conf.example,copyright,changelog.gz}
#   share/doc/dlock/docs/         (docs/: the README's links lead there)

install(TARGETS dlock RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(DLOCK_STATIC)
  install(TARGETS dlock-dynamic RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/dlock)
  # Lintian takes a static-pie executable for a shared library without dependencies.
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/lintian-overrides
          DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME dlock)
endif()

# Man pages and changelogs are installed gzipped (-n: no name or time stamp, so the package is
# reproducible).
find_program(GZIP_PROGRAM gzip REQUIRED)
function(dlock_gzip source output)
  add_custom_command(
    OUTPUT ${output}
    COMMAND sh -c "\"$1\" -9nc \"$2\" > \"$3\"" sh ${GZIP_PROGRAM} ${source} ${output}
    DEPENDS ${source}
    COMMENT "Compressing ${source}"
    VERBATIM)
endfunction()
dlock_gzip(${PROJECT_SOURCE_DIR}/man/dlock.1 ${PROJECT_BINARY_DIR}/dlock.1.gz)
dlock_gzip(${PROJECT_SOURCE_DIR}/packaging/changelog ${PROJECT_BINARY_DIR}/changelog.gz)
add_custom_target(dlock_docs ALL DEPENDS ${PROJECT_BINARY_DIR}/dlock.1.gz
                                         ${PROJECT_BINARY_DIR}/changelog.gz)

install(FILES ${PROJECT_BINARY_DIR}/dlock.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(DLOCK_COMPLETIONS ${PROJECT_SOURCE_DIR}/completions)
install(FILES ${DLOCK_COMPLETIONS}/dlock.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dlock)
install(FILES ${DLOCK_COMPLETIONS}/_dlock DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${DLOCK_COMPLETIONS}/dlock.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/packaging/dlock.conf.example
              ${PROJECT_SOURCE_DIR}/packaging/copyright ${PROJECT_BINARY_DIR}/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
