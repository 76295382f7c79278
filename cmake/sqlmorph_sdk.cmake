# The SDK: public headers (include/sqlmorph) and their implementation (sdk/), built as a static,
# position-independent library linked into the core and into every plugin.

include("${CMAKE_CURRENT_LIST_DIR}/sdk_hash.cmake")
sqlmorph_sdk_hash("${PROJECT_SOURCE_DIR}" SQLMORPH_SDK_HASH)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${SQLMORPH_SDK_HASH_FILES})
configure_file("${PROJECT_SOURCE_DIR}/cmake/sdk_fingerprint.hpp.in"
               "${PROJECT_BINARY_DIR}/generated/sqlmorph/sdk_fingerprint.hpp" @ONLY)

file(GLOB SQLMORPH_SDK_SOURCES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/sdk/*.cpp")
add_library(sqlmorph_sdk STATIC ${SQLMORPH_SDK_SOURCES})
add_library(sqlmorph::sdk ALIAS sqlmorph_sdk)
set_target_properties(sqlmorph_sdk PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(sqlmorph_sdk PUBLIC
  "${PROJECT_SOURCE_DIR}/include"
  "${PROJECT_BINARY_DIR}/generated")
install(TARGETS sqlmorph_sdk ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
