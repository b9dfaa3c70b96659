# cmake/ComposeLua.cmake on made-up scripts: pieces are inserted where first included, once
# (nested includes too); a missing piece, a cycle or a malformed include line is an error
# naming it. Run as: cmake -DCOMPOSE_LUA=<ComposeLua.cmake> -DWORK_DIR=<scratch dir> -P <this>
cmake_minimum_required(VERSION 3.22)
include(${COMPOSE_LUA})

set(dir ${WORK_DIR}/compose_lua_test)
file(REMOVE_RECURSE ${dir})
file(WRITE ${dir}/lib/a.lua "-- a\nlocal function a() end\n")
file(WRITE ${dir}/lib/b.lua "-- b\n--@include lib/a.lua\nlocal function b() a() end\n")
file(WRITE ${dir}/lib/cycle1.lua "--@include lib/cycle2.lua\n")
file(WRITE ${dir}/lib/cycle2.lua "--@include lib/cycle1.lua\n")
file(WRITE ${dir}/plain.lua "return 1 -- no; includes [[here]]\n")
file(WRITE ${dir}/twice.lua "-- head\n--@include lib/a.lua\n--@include lib/b.lua\n--@include lib/a.lua\n\nreturn b()\n")
file(WRITE ${dir}/missing.lua "--@include lib/nope.lua\nreturn 1\n")
file(WRITE ${dir}/cycle.lua "--@include lib/cycle1.lua\n")
file(WRITE ${dir}/indented.lua "  --@include lib/a.lua\n")
file(WRITE ${dir}/escape.lua "--@include lib/../../etc.lua\n")

function(expect what actual expected)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}:\n--- got ---\n${actual}\n--- expected ---\n${expected}")
  endif()
endfunction()

dlock_compose_lua(${dir} plain.lua text)
expect("a script without includes is unchanged" "${text}" "return 1 -- no; includes [[here]]\n")

dlock_compose_lua(${dir} twice.lua text)
# A piece is followed by a blank line unless the next line is blank; a repeated include adds
# nothing (here the blank line before "return" stays).
expect("each piece once, where first included, nested ones before their includer" "${text}"
       "-- head\n-- a\nlocal function a() end\n\n-- b\nlocal function b() a() end\n\n\nreturn b()\n")

# Errors stop cmake: run them in a child and look at what it says.
function(expect_error script message)
  file(WRITE ${dir}/run.cmake "include(${COMPOSE_LUA})\ndlock_compose_lua(${dir} ${script} text)\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -P ${dir}/run.cmake RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE "\n" " " err "${err}")
  if(rc EQUAL 0 OR NOT err MATCHES "${message}")
    message(FATAL_ERROR "${script}: expected an error matching \"${message}\", got (${rc}): ${err}")
  endif()
endfunction()

expect_error(missing.lua "compose_lua_test/missing.lua: --@include lib/nope.lua: no such Lua piece")
expect_error(cycle.lua "include cycle")
expect_error(indented.lua "malformed include line")
expect_error(escape.lua "malformed include line")
message(STATUS "compose_lua_test: all passed")
