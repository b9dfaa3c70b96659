# Composes a lua/*.lua script from its pieces: each line `--@include lib/<piece>.lua` (a Lua
# comment, so the source stays valid Lua) is replaced by the text of lua/lib/<piece>.lua, itself
# composed the same way. A piece is inserted once per script, where it is first included (later
# includes of it add nothing), so a piece may include the pieces it uses. A missing piece, an
# include cycle or a malformed include line is a CMake error naming the file and the piece.
#
#   dlock_compose_lua(<lua dir> <script path relative to it> <out var>)
cmake_policy(VERSION 3.22) # IN_LIST, quoted arguments never dereferenced (also under cmake -P)

function(_dlock_compose_piece lua_dir rel includer out_var)
  set(path "${lua_dir}/${rel}")
  get_filename_component(dir_name "${lua_dir}" NAME) # messages name files as lua/<file>
  if(NOT EXISTS "${path}" OR IS_DIRECTORY "${path}")
    message(FATAL_ERROR
            "${dir_name}/${includer}: --@include ${rel}: no such Lua piece (${path})")
  endif()
  get_property(stack GLOBAL PROPERTY DLOCK_LUA_STACK)
  if(rel IN_LIST stack)
    string(REPLACE ";" " -> " chain "${stack};${rel}")
    message(FATAL_ERROR "${dir_name}/${includer}: --@include ${rel}: include cycle (${chain})")
  endif()
  get_property(seen GLOBAL PROPERTY DLOCK_LUA_SEEN)
  if(rel IN_LIST seen)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY DLOCK_LUA_SEEN "${rel}")
  set_property(GLOBAL APPEND PROPERTY DLOCK_LUA_STACK "${rel}")

  file(READ "${path}" text)
  set(result "")
  while(TRUE)
    string(REGEX MATCH "(^|\n)[ \t]*--[ \t]*@include[^\n]*" directive "${text}")
    if(directive STREQUAL "")
      break()
    endif()
    # The leftmost match: the first occurrence of the matched text is where it starts.
    string(FIND "${text}" "${directive}" at)
    string(LENGTH "${directive}" length)
    math(EXPR after "${at} + ${length}")
    if(directive MATCHES "^\n")
      math(EXPR at "${at} + 1")
      string(SUBSTRING "${directive}" 1 -1 directive)
    endif()
    unset(piece_rel)
    if(directive MATCHES "^--@include[ \t]+([A-Za-z0-9_./-]+\\.lua)[ \t\r]*$")
      set(piece_rel "${CMAKE_MATCH_1}")
    endif()
    if(NOT DEFINED piece_rel OR piece_rel MATCHES "(^|/)\\.\\.(/|$)|^/")
      message(FATAL_ERROR "${dir_name}/${rel}: malformed include line \"${directive}\" "
                          "(expected --@include lib/<piece>.lua)")
    endif()
    _dlock_compose_piece("${lua_dir}" "${piece_rel}" "${rel}" piece)
    if(NOT piece STREQUAL "" AND NOT piece MATCHES "\n$")
      string(APPEND piece "\n")
    endif()
    string(SUBSTRING "${text}" 0 ${at} before)
    string(SUBSTRING "${text}" ${after} -1 text)
    if(text MATCHES "^\n")
      string(SUBSTRING "${text}" 1 -1 text) # the include line's own newline
    endif()
    if(NOT piece STREQUAL "" AND NOT text MATCHES "^\n")
      string(APPEND piece "\n") # a blank line between a piece and what follows
    endif()
    string(APPEND result "${before}${piece}")
  endwhile()
  string(APPEND result "${text}")

  get_property(stack GLOBAL PROPERTY DLOCK_LUA_STACK)
  list(REMOVE_AT stack -1)
  set_property(GLOBAL PROPERTY DLOCK_LUA_STACK "${stack}")
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

function(dlock_compose_lua lua_dir rel out_var)
  set_property(GLOBAL PROPERTY DLOCK_LUA_SEEN "")
  set_property(GLOBAL PROPERTY DLOCK_LUA_STACK "")
  _dlock_compose_piece("${lua_dir}" "${rel}" "${rel}" text)
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()
