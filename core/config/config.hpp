#pragma once
// sqlmorph.toml: plugin directories and run limits. Unknown keys and wrong types are errors that
// name the file, line and column.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/backends_config.hpp"
#include "config/embedding_config.hpp"
#include "config/judges_config.hpp"
#include "techniques/technique_spec.hpp"

namespace sqlmorph::core {

struct run_config {
  /// Seconds allowed per query (gold and predicted alike, unless set apart below).
  double timeout_seconds = 30.0;
  std::optional<double> gold_timeout_seconds;
  std::optional<double> pred_timeout_seconds;
  /// Workers; 0 means one per hardware thread.
  unsigned jobs = 0;
  /// On-disk cache of gold results (none when empty).
  std::optional<std::filesystem::path> cache_dir;
  /// Rows fetched per query before the result is cut and marked truncated.
  std::uint64_t max_rows = 1'000'000;
  /// Text/blob bytes fetched per query before the result is cut and marked truncated.
  std::uint64_t max_result_bytes = 256ull * 1024 * 1024;
  /// The backend that runs every query, unless set apart below or in [databases].
  std::string backend = "sqlite";
  /// The backend of gold (or predicted) queries, when it differs from `backend`.
  std::optional<std::string> gold_backend;
  std::optional<std::string> pred_backend;
};

/// The largest [lua] memory_limit_mb (1 TiB).
inline constexpr std::uint64_t max_lua_memory_mb = std::uint64_t{1} << 20;

struct lua_config {
  /// Folders of technique scripts (*.lua, loaded by file name); a file name found in an earlier
  /// folder hides the same name in later ones.
  std::vector<std::filesystem::path> technique_dirs;
  /// Folders `require` searches (scripts/lib).
  std::vector<std::filesystem::path> lib_dirs;
  /// Megabytes each Lua state may allocate: 1 to max_lua_memory_mb.
  std::uint64_t memory_limit_mb = 256;
  /// Instructions one call into Lua may run (lua_runtime.hpp): at least 1.
  std::uint64_t instruction_limit = 1'000'000'000;
  /// "mark": a failing Lua hook marks that example `script_error`; "abort": the run stops.
  std::string on_error = "mark";
};

struct config {
  /// Where plugin libraries are looked for, in order.
  std::vector<std::filesystem::path> plugin_dirs;
  run_config run;
  lua_config lua;
  /// Techniques declared in [techniques.NAME] tables, in file order.
  std::vector<technique_spec> techniques;
  /// Backends declared in [backends.NAME] tables, in file order.
  std::vector<backend_config> backends;
  /// [databases]: backends chosen per db_id.
  std::vector<database_route> databases;
  /// [embedding] and [embedders.NAME]: the default embedder, named embedders, the embedding cache.
  embedding_config embedding;
  /// Judges declared in [judges.NAME] tables, in file order.
  std::vector<judge_config> judges;
  /// The file this came from (empty for built-in defaults).
  std::filesystem::path source;
};

/// The directory holding the running executable — or the one set_executable_dir gave.
std::filesystem::path executable_dir();
/// Where the defaults look for plugins and scripts when the program is not the sqlmorph executable
/// (the Python module: the build folder, or <prefix>/bin once installed). Call before loading.
void set_executable_dir(const std::filesystem::path& dir);

/// Built-in defaults: plugins next to the executable, then in the install directory.
config default_config();

/// Reads and validates a configuration file. `{exe_dir}` in a plugin directory is replaced by the
/// executable's directory; relative directories are relative to the file's folder.
/// Throws usage_error ("FILE:LINE:COL: problem").
config load_config(const std::filesystem::path& file);

/// The configuration to use: `explicit_file` if given, else $SQLMORPH_CONFIG, else
/// ./sqlmorph.toml if present, else the built-in defaults.
config resolve_config(const std::optional<std::filesystem::path>& explicit_file);

}  // namespace sqlmorph::core
