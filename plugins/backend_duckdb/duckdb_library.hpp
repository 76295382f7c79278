#pragma once
// Loads DuckDB's C API library (libduckdb.so) at run time with Boost.DLL and resolves the functions
// of duckdb_c_api.hpp, refusing a library that lacks one of them or has an unsupported version.

#include <filesystem>
#include <memory>
#include <string>

#include <boost/dll/shared_library.hpp>

#include "duckdb_c_api.hpp"

namespace sqlmorph::duckdb_api {

/// The oldest DuckDB release whose C API has everything used here (duckdb_fetch_chunk on a
/// streaming result: 1.1).
constexpr int min_major = 1;
constexpr int min_minor = 1;

/// One loaded library. Immutable once loaded; shared by the backend and its connections.
class library {
 public:
  /// Loads `path`: a file path, or a bare file name looked up in the system's library path. Throws
  /// std::runtime_error saying what is wrong and how to get the library.
  static std::shared_ptr<const library> load(const std::string& path);

  const functions& api() const noexcept { return f_; }
  /// DuckDB's version string, e.g. "v1.5.6".
  const std::string& version() const noexcept { return version_; }
  /// Where it was loaded from.
  const std::filesystem::path& location() const noexcept { return location_; }

 private:
  boost::dll::shared_library lib_;
  functions f_{};
  std::string version_;
  std::filesystem::path location_;
};

/// Where the plugin looks by default: duckdb/libduckdb.so in the folder of the library holding this
/// code (the plugin; a subfolder, since the plugin loader tries every .so of the plugin folder), else
/// the bare name libduckdb.so for the system's library path.
std::string default_library_path();

/// How to get the library, for error messages: `make deps`, or the npm package and version.
std::string how_to_get_library();

/// Parses "v1.5.6" (or "1.5.6-dev12"); false when it is not a version.
bool parse_version(const std::string& text, int& major, int& minor);

}  // namespace sqlmorph::duckdb_api
