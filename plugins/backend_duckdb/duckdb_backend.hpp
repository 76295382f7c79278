#pragma once
// The DuckDB backend: opens DuckDB database files read-only through DuckDB's C API library, loaded
// at run time (duckdb_library.hpp), and executes one query at a time under DuckDB's own read-only
// settings, a watchdog that interrupts it at the time limit, and the row/byte caps.

#include <cstdint>
#include <memory>
#include <string>

#include <sqlmorph/backend.hpp>
#include <sqlmorph/options.hpp>

#include "duckdb_library.hpp"

namespace sqlmorph::duckdb_backend {

struct duckdb_settings {
  /// DuckDB's threads per connection (each connection is its own database instance).
  std::int64_t threads = 1;
  /// DuckDB's memory_limit per connection ("" leaves DuckDB's default, 80% of RAM).
  std::string memory_limit = "1GB";
};

class duckdb_backend final : public backend {
 public:
  explicit duckdb_backend(const option_values& o);
  backend_capabilities capabilities() const override;

  const duckdb_api::library& library() const noexcept { return *library_; }

 protected:
  connect_outcome open(std::string_view target) const override;

 private:
  std::shared_ptr<const duckdb_api::library> library_;
  duckdb_settings settings_;
};

/// The configuration every database instance (one per connection) opens with: name, value.
std::vector<std::pair<std::string, std::string>> read_only_config(const duckdb_settings& s);
/// Run once on the new connection, before it is handed out: switches the temporary folder off,
/// then external access, and last sets lock_configuration.
std::string read_only_session_sql();

}  // namespace sqlmorph::duckdb_backend
