// Loading into PostgreSQL: each database created with the C collation under an advisory lock,
// tables filled with COPY, a reading role, statistics.

#include <optional>

#include <sqlmorph/sql_lexer.hpp>

#include "destination.hpp"
#include "postgres_sink.hpp"

namespace sqlmorph::load {
namespace {

class postgres_destination final : public destination {
 public:
  explicit postgres_destination(destination_options o) : o_(std::move(o)) {
    if (o_.target.find("{db_id}") == std::string::npos) {
      throw load_error(
          "the connection string must name the database as dbname={db_id} (each file gets its database)");
    }
    if (o_.worker_roles > 0 && o_.grant.empty()) throw load_error("--worker-roles needs --grant ROLE");
    admin_.emplace(with_db(o_.target, o_.admin_db));
    if (!o_.grant.empty()) create_reader_roles(*admin_, o_.grant, o_.worker_roles);
  }

  void open_database(const std::string& name) override {
    name_ = name;
    admin_->lock(database_lock(name));  // released by close_database, or when the session ends
    create_database(*admin_, name, o_.replace);
    db_.emplace(with_db(o_.target, name));
  }

  std::vector<std::string> load_table(const table_plan& t, const row_lines& rows) override {
    create_table(*db_, t, o_.primary_keys);
    std::string columns;
    std::vector<std::string> types;
    for (const column_plan& c : t.columns) {
      columns += (columns.empty() ? "" : ", ") + quote_sql_name(c.target_name);
      types.emplace_back(type_name(c.type));
    }
    db_->copy_in("COPY " + quote_sql_name(t.target_name) + " (" + columns + ") FROM STDIN", rows);
    check_row_count(name_, t, db_->value("SELECT count(*) FROM " + quote_sql_name(t.target_name)));
    return types;
  }

  void close_database() override {
    if (!o_.grant.empty()) grant_reader(*admin_, *db_, name_, o_.grant);
    db_->exec("ANALYZE");
    db_.reset();
    admin_->unlock(database_lock(name_));
  }

  void abandon_database() noexcept override {
    db_.reset();
    try {
      admin_->unlock(database_lock(name_));
    } catch (const std::exception&) {  // the session's end releases it
    }
  }

 private:
  destination_options o_;
  std::optional<postgres_sink> admin_;
  std::optional<postgres_sink> db_;
  std::string name_;
};

}  // namespace

std::unique_ptr<destination> make_postgres_destination(destination_options o) {
  return std::make_unique<postgres_destination>(std::move(o));
}

}  // namespace sqlmorph::load
