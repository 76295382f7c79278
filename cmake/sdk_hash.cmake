# sqlmorph_sdk_hash(<root> <out_var>): the SDK's fingerprint — 16 hex digits of the SHA-256 of every
# public header (include/sqlmorph/*.hpp) and every SDK source (sdk/*.cpp, *.hpp, *.inc), with their
# paths, in sorted order. The SDK sources are linked into every plugin, so a change to them (Value
# hashing, python_str ...) must change the fingerprint that the core checks when it loads a plugin.
# Also the list of those files in <out_var>_FILES.
function(sqlmorph_sdk_hash root out_var)
  file(GLOB_RECURSE _headers "${root}/include/sqlmorph/*.hpp")
  file(GLOB _sources "${root}/sdk/*.cpp" "${root}/sdk/*.hpp" "${root}/sdk/*.inc")
  set(_files ${_headers} ${_sources})
  list(SORT _files)
  set(_text "")
  foreach(_file IN LISTS _files)
    file(READ "${_file}" _content)
    file(RELATIVE_PATH _rel "${root}" "${_file}")
    string(APPEND _text "${_rel}\n${_content}\n")
  endforeach()
  string(SHA256 _sha "${_text}")
  string(SUBSTRING "${_sha}" 0 16 _hash)
  set(${out_var} "${_hash}" PARENT_SCOPE)
  set(${out_var}_FILES "${_files}" PARENT_SCOPE)
endfunction()
