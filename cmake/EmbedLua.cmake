# Embeds every lua/*.lua script into the binary as a C++ string with its SHA1, so dlock can
# EVALSHA first and only send the body on NOSCRIPT. A script is composed first: its
# `--@include lib/<piece>.lua` lines are replaced by lua/lib pieces (cmake/ComposeLua.cmake),
# and the composed script is also written to <build>/lua/<name>.lua, for `redis-cli --eval`.
# Editing a script or a piece regenerates the source and the composed scripts.

function(dlock_embed_lua out_var lua_dir)
  file(GLOB lua_files CONFIGURE_DEPENDS ${lua_dir}/*.lua)
  file(GLOB lua_pieces CONFIGURE_DEPENDS ${lua_dir}/lib/*.lua)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/generated/lua_scripts.cpp)
  set(composed_dir ${PROJECT_BINARY_DIR}/lua)
  set(composed "")
  foreach(path IN LISTS lua_files)
    get_filename_component(file_name ${path} NAME)
    list(APPEND composed ${composed_dir}/${file_name})
  endforeach()
  add_custom_command(
    OUTPUT ${generated} ${composed}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${generated} "-DINPUTS=${lua_files}"
            -DCOMPOSED_DIR=${composed_dir}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateLuaSource.cmake
    DEPENDS ${lua_files} ${lua_pieces} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateLuaSource.cmake
            ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ComposeLua.cmake
    COMMENT "Embedding Lua scripts"
    VERBATIM)
  set(${out_var} ${generated} PARENT_SCOPE)
endfunction()
