# sqlmorph_add_plugin(<kind>_<name> SOURCES <files...> [LIBRARIES <targets...>] [OUTPUT_DIR <dir>])
#
# Builds plugins/<kind>_<name>/ into sqlmorph_<kind>_<name>.so, a module that links only the SDK
# (never the core), exports nothing but its manifest function, and lands in <build>/plugins/ next to
# the sqlmorph executable (or OUTPUT_DIR, used by the deliberately broken test plugins).
function(sqlmorph_add_plugin name)
  cmake_parse_arguments(PLUGIN "NO_INSTALL" "OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT PLUGIN_OUTPUT_DIR)
    set(PLUGIN_OUTPUT_DIR "${SQLMORPH_PLUGIN_OUTPUT_DIR}")
  endif()
  set(target sqlmorph_${name})
  add_library(${target} MODULE ${PLUGIN_SOURCES})
  target_link_libraries(${target} PRIVATE sqlmorph::sdk ${PLUGIN_LIBRARIES})
  # Every symbol resolved at link time — except in the fuzz build, where the sanitizer and coverage
  # runtimes live in the fuzz target that loads the plugin (clang links them into executables only).
  if(NOT SQLMORPH_BUILD_FUZZ)
    target_link_options(${target} PRIVATE "LINKER:--no-undefined")
  endif()
  # Only the manifest function is exported (SQLMORPH_PLUGIN_LIBRARY marks it visible), in the tree
  # and out of it.
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${PLUGIN_OUTPUT_DIR}")
  if(NOT PLUGIN_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION "${SQLMORPH_INSTALL_PLUGIN_DIR}")
  endif()
  set_property(GLOBAL APPEND PROPERTY SQLMORPH_PLUGIN_TARGETS ${target})
endfunction()
