#include "destination.hpp"

namespace sqlmorph::load {

std::unique_ptr<destination> make_postgres_destination(destination_options o);
std::unique_ptr<destination> make_mysql_destination(destination_options o);
std::unique_ptr<destination> make_duckdb_destination(destination_options o);

std::unique_ptr<destination> make_destination(const std::string& to, destination_options options) {
  const auto kind = [&](const char* prefix) {
    const std::string p = prefix;
    if (to.rfind(p, 0) != 0) return false;
    options.target = to.substr(p.size());
    return true;
  };
  if (kind("postgres:")) return make_postgres_destination(std::move(options));
  if (kind("mysql:")) return make_mysql_destination(std::move(options));
  if (kind("duckdb:")) return make_duckdb_destination(std::move(options));
  throw load_error("--to must be postgres:CONNINFO, mysql:CONNECTION or duckdb:PATH, not '" + to + "'");
}

std::string with_db(const std::string& text, const std::string& db) {
  std::string out = text;
  for (std::size_t p = out.find("{db_id}"); p != std::string::npos; p = out.find("{db_id}", p + db.size())) {
    out.replace(p, 7, db);
  }
  return out;
}

std::string database_lock(const std::string& name) {
  return "database " + name;
}

void check_row_count(const std::string& database, const table_plan& table, const std::string& loaded) {
  if (loaded != std::to_string(table.rows)) {
    throw load_error(database + "." + table.source_name + ": " + std::to_string(table.rows) +
                     " rows read but " + loaded + " loaded");
  }
}

}  // namespace sqlmorph::load
