# Writes OUTPUT, a C++ file defining eddy::config::embedded_default_deck() that returns the text of INPUT.
file(READ "${INPUT}" _text)
set(_delim "EDDYDECK")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT}; do not edit.\n#include <string_view>\n"
                       "namespace eddy::config {\nstd::string_view embedded_default_deck() {\n"
                       "  return R\"${_delim}(${_text})${_delim}\";\n}\n}  // namespace eddy::config\n")
