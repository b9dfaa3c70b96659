# Run in script mode by EmbedLua.cmake: writes OUTPUT defining dlock::redis::embedded_scripts().
# Each script's body is the script composed from its lua/lib pieces, also written to COMPOSED_DIR.
include(${CMAKE_CURRENT_LIST_DIR}/ComposeLua.cmake)
set(body "// Generated from lua/*.lua by cmake/GenerateLuaSource.cmake. Do not edit.\n")
# Also defines, for each lua/NAME.lua, the handle dlock::redis::scripts::NAME declared in
# src/redis/scripts/embedded_scripts.hpp: a script without a declaration there fails to compile.
set(handles "")
set(index 0)
string(APPEND body "#include \"redis/scripts/embedded_scripts.hpp\"\n\nnamespace dlock::redis {\n\n")
string(APPEND body "namespace {\n\nconstexpr EmbeddedScript kScripts[] = {\n")
list(SORT INPUTS)
file(GLOB stale_composed ${COMPOSED_DIR}/*.lua) # e.g. of a script since renamed
if(stale_composed) # none in a new build tree, and file(REMOVE) wants at least one
  file(REMOVE ${stale_composed})
endif()
foreach(path IN LISTS INPUTS)
  get_filename_component(name ${path} NAME_WE)
  get_filename_component(lua_dir ${path} DIRECTORY)
  dlock_compose_lua(${lua_dir} ${name}.lua text)
  file(WRITE ${COMPOSED_DIR}/${name}.lua "${text}")
  string(SHA1 sha "${text}")
  string(APPEND body "        {\"${name}\", \"${sha}\", R\"dlock_lua(${text})dlock_lua\"},\n")
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "${path}: a script's name must be a C++ identifier ([a-z][a-z0-9_]*)")
  endif()
  string(APPEND handles "const EmbeddedScript& scripts::${name} = kScripts[${index}];\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND body "};\n\n} // namespace\n\n")
string(APPEND body "std::span<const EmbeddedScript> embedded_scripts() {\n    return kScripts;\n}\n\n")
string(APPEND body "${handles}\n} // namespace dlock::redis\n")
file(WRITE ${OUTPUT} "${body}")
