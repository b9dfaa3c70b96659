# Embeds every lua/*.lua file into the binary as a C++ string with its SHA1, so dlock can
# EVALSHA first and only send the body on NOSCRIPT. Editing a .lua file regenerates the source.

function(dlock_embed_lua out_var lua_dir)
  file(GLOB lua_files CONFIGURE_DEPENDS ${lua_dir}/*.lua)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/generated/lua_scripts.cpp)
  add_custom_command(
    OUTPUT ${generated}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${generated} "-DINPUTS=${lua_files}"
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateLuaSource.cmake
    DEPENDS ${lua_files} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateLuaSource.cmake
    COMMENT "Embedding Lua scripts"
    VERBATIM)
  set(${out_var} ${generated} PARENT_SCOPE)
endfunction()
