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
set_target_properties(sqlmorph_sdk PROPERTIES EXPORT_NAME sdk)
target_compile_features(sqlmorph_sdk PUBLIC cxx_std_20)
target_include_directories(sqlmorph_sdk PUBLIC
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>"
  "$<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated>"
  "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")

# find_package(sqlmorph) for plugins built outside the tree: the SDK as sqlmorph::sdk and
# sqlmorph_add_plugin (cmake/sqlmorphConfig.cmake.in; docs/plugin-authoring.md).
include(CMakePackageConfigHelpers)
set(SQLMORPH_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/sqlmorph")
install(TARGETS sqlmorph_sdk EXPORT sqlmorphTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT sqlmorphTargets NAMESPACE sqlmorph:: DESTINATION "${SQLMORPH_INSTALL_CMAKE_DIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/sqlmorphConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/generated/sqlmorphConfig.cmake"
                              INSTALL_DESTINATION "${SQLMORPH_INSTALL_CMAKE_DIR}")
# The plugin ABI check (the SDK fingerprint) decides what loads; the version says what was asked.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/generated/sqlmorphConfigVersion.cmake"
                                 VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/generated/sqlmorphConfig.cmake"
              "${PROJECT_BINARY_DIR}/generated/sqlmorphConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/sqlmorph_plugin.cmake"
        DESTINATION "${SQLMORPH_INSTALL_CMAKE_DIR}")
