#pragma once
// The backends of sqlmorph.toml: [backends.NAME] declares a backend (a backend component, its
// options, and how a database is reached), [databases] says which backend runs which database.

#include <toml++/toml.h>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core {

/// A backend as [backends.NAME] declares it.
struct backend_config {
  std::string name;
  /// The backend component that runs it ("sqlite", "postgres", "odbc"); defaults to `name`.
  std::string component;
  /// How a database is reached, with placeholders {db_id} (the database's name) and {path} (the
  /// database file the benchmark names: DB_ROOT/DB_ID/DB_ID.sqlite, or a cases file's "db").
  std::string target = "{path}";
  /// The component's options.
  std::map<std::string, spec_value, std::less<>> options;
  /// "FILE:LINE:COL" of the declaration (empty for built-in defaults).
  std::string origin;
};

/// [databases]: the backends of one database (by db_id); a role left unset follows the defaults.
struct database_route {
  std::string db_id;
  std::optional<std::string> gold;
  std::optional<std::string> pred;
  std::string origin;
};

/// The placeholders a target may use.
inline constexpr const char* target_placeholders[] = {"{db_id}", "{path}"};

/// Reads [backends] (a table of [backends.NAME] tables). Throws usage_error with FILE:LINE:COL.
std::vector<backend_config> read_backends_table(const std::filesystem::path& file, const toml::node& n);
/// Reads [databases] (db_id = "backend" or db_id = { gold = "...", pred = "..." }).
std::vector<database_route> read_databases_table(const std::filesystem::path& file, const toml::node& n);

/// Checks that `target` uses only known placeholders; returns the problem or "".
std::string check_target_template(const std::string& target);

}  // namespace sqlmorph::core
