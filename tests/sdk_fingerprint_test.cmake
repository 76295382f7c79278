# The plugin ABI fingerprint covers the SDK sources, not only its headers: a change to an SDK .cpp
# (linked into every plugin) changes it, as a change to a header does, and the fingerprint compiled
# into this build is the one of the tree it was built from.
#   cmake -DROOT=<source dir> -DBUILD=<build dir> -DWORK=<scratch dir> -P sdk_fingerprint_test.cmake
include("${ROOT}/cmake/sdk_hash.cmake")

sqlmorph_sdk_hash("${ROOT}" tree_hash)
file(READ "${BUILD}/generated/sqlmorph/sdk_fingerprint.hpp" generated)
if(NOT generated MATCHES "SQLMORPH_SDK_HASH \"${tree_hash}\"")
  message(FATAL_ERROR "the build's sdk_fingerprint.hpp does not hold the tree's SDK hash ${tree_hash}")
endif()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/include")
file(COPY "${ROOT}/include/sqlmorph" DESTINATION "${WORK}/include")
file(COPY "${ROOT}/sdk" DESTINATION "${WORK}")
sqlmorph_sdk_hash("${WORK}" copy_hash)
if(NOT copy_hash STREQUAL tree_hash)
  message(FATAL_ERROR "a copy of the SDK hashes differently: ${copy_hash} vs ${tree_hash}")
endif()
file(APPEND "${WORK}/sdk/value.cpp" "\n// a change to how values hash\n")
sqlmorph_sdk_hash("${WORK}" source_changed)
if(source_changed STREQUAL copy_hash)
  message(FATAL_ERROR "a change to sdk/value.cpp leaves the SDK fingerprint ${copy_hash} unchanged")
endif()
file(APPEND "${WORK}/include/sqlmorph/value.hpp" "\n// a change to a header\n")
sqlmorph_sdk_hash("${WORK}" header_changed)
if(header_changed STREQUAL source_changed)
  message(FATAL_ERROR "a change to include/sqlmorph/value.hpp leaves the SDK fingerprint unchanged")
endif()
file(REMOVE_RECURSE "${WORK}")
message(STATUS "SDK fingerprint ${tree_hash} covers headers and sources")
