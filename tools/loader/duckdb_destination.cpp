// Loading into DuckDB files: one file per database, written under a temporary name and renamed
// into place once complete.

#include <unistd.h>

#include <filesystem>
#include <optional>

#include "destination.hpp"
#include "duckdb_sink.hpp"

namespace sqlmorph::load {
namespace fs = std::filesystem;
namespace {

// The library: the one given, else the one installed beside the plugins, else the one the build
// copied beside them, else libduckdb.so from the system's library path.
std::shared_ptr<const duckdb_api::library> load_library(const std::string& given) {
  std::string path = given;
  std::error_code ec;
  for (const char* candidate : {SQLMORPH_LOADER_INSTALLED_DUCKDB, SQLMORPH_LOADER_BUILT_DUCKDB}) {
    if (path.empty() && fs::is_regular_file(candidate, ec)) path = candidate;
  }
  try {
    return duckdb_api::library::load(path.empty() ? "libduckdb.so" : path);
  } catch (const std::exception& e) {
    throw load_error(e.what());
  }
}

class duckdb_destination final : public destination {
 public:
  explicit duckdb_destination(destination_options o) : o_(std::move(o)) {
    if (!o_.grant.empty() || o_.worker_roles > 0) {
      throw load_error(
          "--grant and --worker-roles are for database servers: the duckdb backend opens files read-only");
    }
    if (o_.primary_keys) throw load_error("--primary-keys is for PostgreSQL");
    library_ = load_library(o_.duckdb_library);
  }

  void open_database(const std::string& name) override {
    if (!opened_.empty() && opened_ != name && o_.target.find("{db_id}") == std::string::npos) {
      throw load_error(
          "the path must contain {db_id} (each database gets its file), as in "
          "duckdb:DIR/{db_id}/{db_id}.duckdb");
    }
    opened_ = name;
    file_ = with_db(o_.target, name);
    std::error_code ec;
    if (fs::exists(file_, ec) && !o_.replace) {
      throw load_error(file_.string() + " already exists (--replace writes it again)");
    }
    if (file_.has_parent_path()) fs::create_directories(file_.parent_path(), ec);
    partial_ = file_.string() + ".loading-" + std::to_string(::getpid());
    remove_partial();
    sink_.emplace(library_, partial_);
  }

  std::vector<std::string> load_table(const table_plan& t, const row_lines& rows) override {
    sink_->load_table(t, rows);
    std::vector<std::string> types;
    for (const column_plan& c : t.columns) types.emplace_back(duckdb_type_name(c));
    return types;
  }

  void close_database() override {
    sink_->close();
    sink_.reset();
    std::error_code ec;
    fs::rename(partial_, file_, ec);
    if (ec)
      throw load_error("cannot move " + partial_.string() + " to " + file_.string() + ": " + ec.message());
  }

  void abandon_database() noexcept override {
    sink_.reset();
    remove_partial();
  }

 private:
  void remove_partial() noexcept {
    std::error_code ec;
    fs::remove(partial_, ec);
    fs::remove(partial_.string() + ".wal", ec);
  }

  destination_options o_;
  std::shared_ptr<const duckdb_api::library> library_;
  std::optional<duckdb_sink> sink_;
  std::string opened_;
  fs::path file_;
  fs::path partial_;
};

}  // namespace

std::unique_ptr<destination> make_duckdb_destination(destination_options o) {
  return std::make_unique<duckdb_destination>(std::move(o));
}

}  // namespace sqlmorph::load
