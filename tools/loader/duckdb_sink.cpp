#include "duckdb_sink.hpp"

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::load {
namespace {

// Rows are inserted in statements of about this many bytes.
constexpr std::size_t insert_chunk = 1u << 20;

void append_literal(std::string& sql, const std::optional<std::string>& field, column_type type) {
  if (!field) {
    sql += "NULL";
    return;
  }
  if (type == column_type::bytea) {  // `\x0aff`: hex digits after the \x
    sql += "from_hex('" + field->substr(field->rfind('x') + 1) + "')";
    return;
  }
  sql += quote_sql_string(*field);  // numbers, dates and timestamps too: DuckDB casts the text
}

}  // namespace

const char* duckdb_type_name(const column_plan& c) noexcept {
  switch (c.type) {
    case column_type::date:
      return "DATE";
    case column_type::timestamp:
      return "TIMESTAMP";
    case column_type::bigint:
      return "BIGINT";
    case column_type::double_precision:
      return "DOUBLE";
    case column_type::text:
      return "VARCHAR";
    case column_type::bytea:
      return "BLOB";
  }
  return "VARCHAR";
}

std::vector<std::optional<std::string>> copy_fields(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  std::vector<std::optional<std::string>> out;
  std::string field;
  bool null = false;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == '\t') {
      out.emplace_back(null ? std::nullopt : std::optional<std::string>(std::move(field)));
      field.clear();
      null = false;
      continue;
    }
    if (line[i] != '\\' || i + 1 == line.size()) {
      field += line[i];
      continue;
    }
    switch (const char e = line[++i]) {
      case 't':
        field += '\t';
        break;
      case 'n':
        field += '\n';
        break;
      case 'r':
        field += '\r';
        break;
      case 'N':
        null = true;
        break;
      default:
        field += e;
    }
  }
  return out;
}

duckdb_sink::duckdb_sink(std::shared_ptr<const duckdb_api::library> library,
                         const std::filesystem::path& file)
    : lib_(std::move(library)), file_(file) {
  const duckdb_api::functions& f = lib_->api();
  char* error = nullptr;
  if (f.open_ext(file.c_str(), &db_, nullptr, &error) != duckdb_api::state::success) {
    const std::string message = error != nullptr ? error : "unknown error";
    if (error != nullptr) f.free(error);
    throw load_error("cannot create the DuckDB database " + file.string() + ": " + message);
  }
  if (f.connect(db_, &conn_) != duckdb_api::state::success) {
    f.close(&db_);
    throw load_error("cannot connect to the DuckDB database " + file.string());
  }
}

duckdb_sink::~duckdb_sink() {
  if (lib_ == nullptr) return;
  if (conn_ != nullptr) lib_->api().disconnect(&conn_);
  if (db_ != nullptr) lib_->api().close(&db_);
}

void duckdb_sink::exec(const std::string& sql) {
  const duckdb_api::functions& f = lib_->api();
  duckdb_api::query_result res{};
  const bool ok = f.query(conn_, sql.c_str(), &res) == duckdb_api::state::success;
  const std::string message = ok ? "" : f.result_error(&res);
  f.destroy_result(&res);
  if (!ok) throw load_error("DuckDB: " + message + " (in: " + sql.substr(0, 200) + ")");
}

void duckdb_sink::load_table(const table_plan& table, const row_lines& produce) {
  const std::string name = quote_sql_name(table.source_name);
  std::string columns;
  for (const column_plan& c : table.columns) {
    columns += (columns.empty() ? "" : ", ") + quote_sql_name(c.source_name) + " " + duckdb_type_name(c);
  }
  exec("BEGIN TRANSACTION");
  exec("CREATE TABLE " + name + " (" + columns + ")");
  const std::string insert = "INSERT INTO " + name + " VALUES ";
  std::string sql;
  const auto flush = [&] {
    if (sql.empty()) return;
    exec(insert + sql);
    sql.clear();
  };
  produce([&](const std::string& line) {
    const auto fields = copy_fields(line);
    if (fields.size() != table.columns.size()) {
      throw load_error(table.source_name + ": a row of " + std::to_string(fields.size()) + " fields, " +
                       std::to_string(table.columns.size()) + " columns");
    }
    sql += sql.empty() ? "(" : ", (";
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) sql += ", ";
      append_literal(sql, fields[i], table.columns[i].type);
    }
    sql += ')';
    if (sql.size() >= insert_chunk) flush();
  });
  flush();
  const std::string rows = std::to_string(table.rows);
  exec("SELECT CASE WHEN count(*) = " + rows + " THEN 0 ELSE error(" +
       quote_sql_string(table.source_name + ": " + rows + " rows read but ") +
       " || count(*) || ' loaded') END FROM " + name);
  exec("COMMIT");
}

void duckdb_sink::close() {
  exec("CHECKPOINT");
  const duckdb_api::functions& f = lib_->api();
  f.disconnect(&conn_);
  f.close(&db_);
}

}  // namespace sqlmorph::load
