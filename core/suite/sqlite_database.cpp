#include "suite/sqlite_database.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <sqlite3.h>
#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::core::suite {
namespace {

struct statement_guard {
  sqlite3_stmt* stmt = nullptr;
  ~statement_guard() { sqlite3_finalize(stmt); }
};

sql_value column_value(sqlite3_stmt* stmt, int i) {
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_INTEGER:
      return sql_value::of_int(sqlite3_column_int64(stmt, i));
    case SQLITE_FLOAT:
      return sql_value::of_real(sqlite3_column_double(stmt, i));
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      return sql_value::of_text(std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, i))));
    }
    case SQLITE_BLOB: {
      sql_value v;
      v.type = sql_value::kind::blob;
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, i));
      if (p != nullptr) v.text.assign(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
      return v;
    }
    default:
      return {};
  }
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

}  // namespace

std::string sql_value::key() const {
  switch (type) {
    case kind::null:
      return "n";
    case kind::integer:
      return "i:" + std::to_string(integer);
    case kind::real: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "r:%.17g", real);
      return buf;
    }
    case kind::text:
      return "t:" + text;
    case kind::blob:
      return "b:" + text;
  }
  return "n";
}

sqlite_database::sqlite_database(const std::filesystem::path& file, mode m) : file_(file) {
  const int flags = m == mode::read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(file.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open the database " + file.string() + ": " + message);
  }
}

sqlite_database::~sqlite_database() {
  sqlite3_close(db_);
}

void sqlite_database::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error(file_.string() + ": " + message);
  }
}

std::vector<std::vector<sql_value>> sqlite_database::rows(const std::string& sql) {
  statement_guard g;
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &g.stmt, nullptr) != SQLITE_OK)
    throw std::runtime_error(file_.string() + ": " + sqlite3_errmsg(db_));
  std::vector<std::vector<sql_value>> out;
  if (g.stmt == nullptr) return out;
  const int n = sqlite3_column_count(g.stmt);
  int rc = 0;
  while ((rc = sqlite3_step(g.stmt)) == SQLITE_ROW) {
    std::vector<sql_value> row;
    row.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) row.push_back(column_value(g.stmt, i));
    out.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) throw std::runtime_error(file_.string() + ": " + sqlite3_errmsg(db_));
  return out;
}

std::string sqlite_database::prepare_error(std::string_view sql) {
  const char* at = sql.data();
  const char* end = sql.data() + sql.size();
  bool any = false;
  while (at < end) {
    statement_guard g;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db_, at, static_cast<int>(end - at), &g.stmt, &tail) != SQLITE_OK)
      return sqlite3_errmsg(db_);
    if (g.stmt == nullptr) break;  // only whitespace or comments left
    any = true;
    at = tail;
  }
  return any ? std::string() : std::string("no statement");
}

bool sqlite_database::insert(const std::string& sql, const std::vector<sql_value>& values) {
  statement_guard g;
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &g.stmt, nullptr) != SQLITE_OK)
    throw std::runtime_error(file_.string() + ": " + sqlite3_errmsg(db_));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const int at = static_cast<int>(i) + 1;
    const sql_value& v = values[i];
    switch (v.type) {
      case sql_value::kind::null:
        sqlite3_bind_null(g.stmt, at);
        break;
      case sql_value::kind::integer:
        sqlite3_bind_int64(g.stmt, at, v.integer);
        break;
      case sql_value::kind::real:
        sqlite3_bind_double(g.stmt, at, v.real);
        break;
      case sql_value::kind::text:
        sqlite3_bind_text(g.stmt, at, v.text.data(), static_cast<int>(v.text.size()), SQLITE_TRANSIENT);
        break;
      case sql_value::kind::blob:
        sqlite3_bind_blob(g.stmt, at, v.text.data(), static_cast<int>(v.text.size()), SQLITE_TRANSIENT);
        break;
    }
  }
  const int rc = sqlite3_step(g.stmt);
  if (rc == SQLITE_DONE) return true;
  if ((rc & 0xff) == SQLITE_CONSTRAINT || (rc & 0xff) == SQLITE_MISMATCH) return false;
  throw std::runtime_error(file_.string() + ": " + sqlite3_errmsg(db_));
}

schema_info read_schema(sqlite_database& db) {
  schema_info s;
  for (const auto& row : db.rows("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                                 "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")) {
    const std::string& type = row[0].text;
    if (type != "table") {
      s.other_sql.push_back(row[2].text);
      continue;
    }
    table_info t;
    t.name = row[1].text;
    t.create_sql = row[2].text;
    for (const auto& c : db.rows("PRAGMA table_info(" + quote_sql_name(t.name) + ")")) {
      column_info col;
      col.name = c[1].text;
      col.declared_type = c[2].text;
      col.not_null = c[3].integer != 0;
      col.pk = static_cast<int>(c[5].integer);
      t.columns.push_back(std::move(col));
    }
    std::vector<std::pair<int, std::string>> pk;
    for (const column_info& c : t.columns)
      if (c.pk > 0) pk.emplace_back(c.pk, c.name);
    std::sort(pk.begin(), pk.end());
    if (!pk.empty()) {
      std::vector<std::string> cols;
      for (const auto& p : pk) cols.push_back(p.second);
      t.unique.push_back(cols);
      if (pk.size() == 1) {
        for (const column_info& c : t.columns)
          if (c.pk == 1 && lower(c.declared_type) == "integer") t.has_rowid_alias = true;
      }
    }
    for (const auto& idx : db.rows("PRAGMA index_list(" + quote_sql_name(t.name) + ")")) {
      if (idx[2].integer == 0) continue;  // not unique
      std::vector<std::string> cols;
      for (const auto& ic : db.rows("PRAGMA index_info(" + quote_sql_name(idx[1].text) + ")"))
        if (ic[2].type == sql_value::kind::text) cols.push_back(ic[2].text);
      if (!cols.empty() && std::find(t.unique.begin(), t.unique.end(), cols) == t.unique.end())
        t.unique.push_back(std::move(cols));
    }
    // PRAGMA foreign_key_list: id, seq, table, from, to, ...; one row per column of each key.
    std::int64_t current = -1;
    for (const auto& fk : db.rows("PRAGMA foreign_key_list(" + quote_sql_name(t.name) + ")")) {
      if (fk[0].integer != current) {
        current = fk[0].integer;
        t.foreign_keys.push_back({{}, fk[2].text, {}});
      }
      t.foreign_keys.back().from.push_back(fk[3].text);
      if (fk[4].type == sql_value::kind::text) t.foreign_keys.back().to.push_back(fk[4].text);
    }
    s.tables.push_back(std::move(t));
  }
  return s;
}

std::string dump_database(const std::filesystem::path& file) {
  sqlite_database db(file, sqlite_database::mode::read_only);
  const schema_info s = read_schema(db);
  std::string out;
  for (const table_info& t : s.tables) {
    std::vector<std::string> lines;
    for (const auto& row : db.rows("SELECT * FROM " + quote_sql_name(t.name))) {
      std::string line = t.name;
      for (const sql_value& v : row) line += "\t" + v.key();
      lines.push_back(std::move(line));
    }
    std::sort(lines.begin(), lines.end());
    out += "table " + t.name + " (" + std::to_string(lines.size()) + " rows)\n";
    for (const std::string& l : lines) out += l + "\n";
  }
  return out;
}

}  // namespace sqlmorph::core::suite
