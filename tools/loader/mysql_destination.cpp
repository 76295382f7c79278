// Loading into MySQL/MariaDB: each database created with utf8mb4 and a binary collation that keeps
// trailing spaces (NO PAD) under a named lock, tables filled with LOAD DATA LOCAL, an account that
// may only read them.

#include <optional>

#include "destination.hpp"
#include "mysql_sink.hpp"

namespace sqlmorph::load {
namespace {

// The MySQL account `user` or `user@host` (host `localhost` when not given) as 'user'@'host'.
std::string mysql_account(const std::string& grant) {
  const std::size_t at = grant.rfind('@');
  const std::string user = at == std::string::npos ? grant : grant.substr(0, at);
  const std::string host = at == std::string::npos ? "localhost" : grant.substr(at + 1);
  if (user.empty() || host.empty())
    throw load_error("--grant must be USER or USER@HOST, not '" + grant + "'");
  for (const char c : user + host) {
    if (c == '\'' || c == '\\')
      throw load_error("--grant: quotes and backslashes are not allowed in '" + grant + "'");
  }
  return "'" + user + "'@'" + host + "'";
}

class mysql_destination final : public destination {
 public:
  explicit mysql_destination(destination_options o) : o_(std::move(o)) {
    if (o_.worker_roles > 0) {
      throw load_error("--worker-roles is for PostgreSQL (the postgres backend's user_per_worker)");
    }
    if (o_.primary_keys) {
      throw load_error("--primary-keys is for PostgreSQL (MySQL does not need keys to bind a GROUP BY)");
    }
    if (o_.target.find("{db_id}") == std::string::npos) {
      throw load_error(
          "the connection string must name the database as database={db_id} (each file gets its database)");
    }
    account_ = o_.grant.empty() ? std::string() : mysql_account(o_.grant);
    sink_.emplace(with_db(o_.target, "mysql"));
    // Byte-wise as SQLite compares: utf8mb4_bin pads (in it 'a' = 'a ', and DISTINCT or GROUP BY
    // takes them for one value); MariaDB's utf8mb4_nopad_bin and MySQL 8's utf8mb4_0900_bin do not.
    collation_ = sink_->value(
        "SELECT COALESCE(MAX(COLLATION_NAME), 'utf8mb4_bin') FROM information_schema.COLLATIONS WHERE "
        "COLLATION_NAME IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin')");
    if (!account_.empty()) sink_->exec("CREATE USER IF NOT EXISTS " + account_);
  }

  void open_database(const std::string& name) override {
    name_ = name;
    lock_ = "'" + database_lock(name) + "'";
    if (sink_->value("SELECT GET_LOCK(" + lock_ + ", 3600)") != "1") {
      throw load_error("could not take the lock of " + name + " within an hour");
    }
    const std::string exists =
        sink_->value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + name + "'");
    if (exists != "0" && !o_.replace) {
      throw load_error("database " + name + " already exists (--replace drops it and loads it again)");
    }
    const std::string db = mysql_identifier(name);
    sink_->exec("DROP DATABASE IF EXISTS " + db);
    sink_->exec("CREATE DATABASE " + db + " CHARACTER SET utf8mb4 COLLATE " + collation_);
  }

  std::vector<std::string> load_table(const table_plan& t, const row_lines& rows) override {
    std::vector<std::string> types = mysql_column_types(t);
    std::string columns;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      columns += (columns.empty() ? "" : ", ") + mysql_identifier(t.columns[i].target_name) + " " + types[i];
      if (types[i].rfind("VARCHAR(", 0) == 0) types[i] = "VARCHAR";  // the report counts types, not sizes
    }
    const std::string table = mysql_identifier(name_) + "." + mysql_identifier(t.target_name);
    sink_->exec("CREATE TABLE " + table + " (" + columns + ")");
    sink_->load_lines(t, name_, rows);
    check_row_count(name_, t, sink_->value("SELECT COUNT(*) FROM " + table));
    sink_->exec("ANALYZE TABLE " + table);
    return types;
  }

  void close_database() override {
    if (!account_.empty()) sink_->exec("GRANT SELECT ON " + mysql_identifier(name_) + ".* TO " + account_);
    sink_->exec("DO RELEASE_LOCK(" + lock_ + ")");
  }

  void abandon_database() noexcept override {
    try {
      sink_->exec("DO RELEASE_LOCK(" + lock_ + ")");
    } catch (const std::exception&) {  // the session's end releases it
    }
  }

 private:
  destination_options o_;
  std::optional<mysql_sink> sink_;
  std::string account_;
  std::string collation_;  // the databases' (a name from information_schema)
  std::string name_;
  std::string lock_;
};

}  // namespace

std::unique_ptr<destination> make_mysql_destination(destination_options o) {
  return std::make_unique<mysql_destination>(std::move(o));
}

}  // namespace sqlmorph::load
