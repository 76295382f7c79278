#include "sqlite_source.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::load {
namespace {

struct statement {
  sqlite3_stmt* s = nullptr;
  statement(sqlite3* db, const std::string& sql) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      throw load_error(std::string("SQLite: ") + sqlite3_errmsg(db) + " (in: " + sql + ")");
    }
  }
  ~statement() { sqlite3_finalize(s); }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  std::string text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, col));
    return p == nullptr ? std::string()
                        : std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, col)));
  }
};

// SELECT of the table's columns, in their order, from the source file.
std::string select_columns(const table_plan& t) {
  std::string select = "SELECT ";
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    select += (i ? ", " : "") + quote_sql_name(t.columns[i].source_name);
  return select + " FROM " + quote_sql_name(t.source_name);
}

bool contains_ci(std::string haystack, const char* needle) {
  std::transform(haystack.begin(), haystack.end(), haystack.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  return haystack.find(needle) != std::string::npos;
}

// YYYY-MM-DD, digits where they belong (the month and day are not checked further: a server
// refuses an impossible date and the load fails, naming it).
bool is_iso_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// YYYY-MM-DD HH:MM:SS (or T for the space), optionally .F to .FFFFFF.
bool is_iso_timestamp(std::string_view s, bool& fraction) {
  if (s.size() < 19 || !is_iso_date(s.substr(0, 10)) || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' ||
      s[16] != ':')
    return false;
  for (std::size_t i : {11, 12, 14, 15, 17, 18})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  if (s.size() == 19) return true;
  if (s[19] != '.' || s.size() < 21 || s.size() > 26) return false;
  for (std::size_t i = 20; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  fraction = true;
  return true;
}

column_type choose_type(const column_plan& c, bool temporal_types) {
  const bool only_texts = temporal_types && c.integers + c.reals + c.blobs == 0;
  if (only_texts && (contains_ci(c.declared_type, "DATETIME") || contains_ci(c.declared_type, "TIMESTAMP")) &&
      c.date_texts + c.timestamp_texts == c.texts) {
    return column_type::timestamp;
  }
  if (only_texts && contains_ci(c.declared_type, "DATE") && c.date_texts == c.texts) return column_type::date;
  if (c.texts > 0) return column_type::text;
  if (c.blobs > 0) return c.integers + c.reals > 0 ? column_type::text : column_type::bytea;
  if (c.reals > 0) return column_type::double_precision;
  if (c.integers > 0) return column_type::bigint;
  // Nothing but NULLs: follow the declared type (SQLite's affinity rules, in short).
  if (contains_ci(c.declared_type, "INT")) return column_type::bigint;
  if (contains_ci(c.declared_type, "REAL") || contains_ci(c.declared_type, "FLOA") ||
      contains_ci(c.declared_type, "DOUB")) {
    return column_type::double_precision;
  }
  return column_type::text;
}

}  // namespace

const char* type_name(column_type t) noexcept {
  switch (t) {
    case column_type::bigint:
      return "bigint";
    case column_type::double_precision:
      return "double precision";
    case column_type::text:
      return "text";
    case column_type::bytea:
      return "bytea";
    case column_type::date:
      return "date";
    case column_type::timestamp:
      return "timestamp";
  }
  return "text";
}

std::string target_identifier(const std::string& name) {
  const bool plain =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
      std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
  if (!plain) return name;
  std::string out = name;
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

sqlite_source::sqlite_source(const std::filesystem::path& file) : file_(file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw load_error(file.string() + ": no such database file");
  const std::string uri = "file:" + file.string() + "?mode=ro&immutable=1";
  if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw load_error(file.string() + ": " + message);
  }
}

sqlite_source::~sqlite_source() {
  sqlite3_close(db_);
}

std::vector<table_plan> sqlite_source::plan_tables(bool temporal_types) {
  std::vector<table_plan> tables;
  {
    statement list(
        db_,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
        "ORDER BY rowid");
    while (sqlite3_step(list.s) == SQLITE_ROW) {
      table_plan t;
      t.source_name = list.text(0);
      t.target_name = target_identifier(t.source_name);
      tables.push_back(std::move(t));
    }
  }
  std::set<std::string> table_names;
  for (table_plan& t : tables) {
    if (!table_names.insert(t.target_name).second) {
      throw load_error(file_.string() + ": two tables are both '" + t.target_name + "' once lower-cased");
    }
    statement info(db_, "PRAGMA table_info(" + quote_sql_name(t.source_name) + ")");
    std::set<std::string> names;
    std::vector<std::pair<int, std::string>> key;  // (position in the key, column)
    while (sqlite3_step(info.s) == SQLITE_ROW) {
      column_plan c;
      c.source_name = info.text(1);
      c.declared_type = info.text(2);
      c.target_name = target_identifier(c.source_name);
      if (const int pk = sqlite3_column_int(info.s, 5); pk > 0) key.emplace_back(pk, c.target_name);
      if (!names.insert(c.target_name).second) {
        throw load_error(file_.string() + ": table " + t.source_name + " has two columns named '" +
                         c.target_name + "' once lower-cased");
      }
      t.columns.push_back(std::move(c));
    }
    std::sort(key.begin(), key.end());
    for (auto& k : key) t.primary_key.push_back(std::move(k.second));
    // Storage classes actually present, column by column.
    statement rows(db_, select_columns(t));
    while (sqlite3_step(rows.s) == SQLITE_ROW) {
      ++t.rows;
      for (std::size_t i = 0; i < t.columns.size(); ++i) {
        column_plan& c = t.columns[i];
        switch (sqlite3_column_type(rows.s, static_cast<int>(i))) {
          case SQLITE_INTEGER:
            ++c.integers;
            c.max_text_bytes = std::max<std::size_t>(c.max_text_bytes, 20);
            break;
          case SQLITE_FLOAT:
            ++c.reals;
            c.max_text_bytes = std::max<std::size_t>(c.max_text_bytes, 32);
            break;
          case SQLITE_TEXT: {
            ++c.texts;
            const std::string_view text(
                reinterpret_cast<const char*>(sqlite3_column_text(rows.s, static_cast<int>(i))),
                static_cast<std::size_t>(sqlite3_column_bytes(rows.s, static_cast<int>(i))));
            c.max_text_bytes = std::max(c.max_text_bytes, text.size());
            if (is_iso_date(text)) {
              ++c.date_texts;
            } else if (is_iso_timestamp(text, c.fractional_seconds)) {
              ++c.timestamp_texts;
            }
            break;
          }
          case SQLITE_BLOB:
            ++c.blobs;
            c.max_text_bytes =
                std::max(c.max_text_bytes,
                         2 * static_cast<std::size_t>(sqlite3_column_bytes(rows.s, static_cast<int>(i))) + 2);
            break;
          default:
            ++c.nulls;
        }
      }
    }
    for (column_plan& c : t.columns) c.type = choose_type(c, temporal_types);
  }
  return tables;
}

void sqlite_source::copy_rows(const table_plan& table, const std::function<void(const std::string&)>& line,
                              text_repairs& repairs) {
  statement rows(db_, select_columns(table));
  std::string out;
  while (sqlite3_step(rows.s) == SQLITE_ROW) {
    out.clear();
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (i > 0) out += '\t';
      const int col = static_cast<int>(i);
      const int storage = sqlite3_column_type(rows.s, col);
      if (storage == SQLITE_NULL) {
        out += "\\N";
        continue;
      }
      switch (table.columns[i].type) {
        case column_type::bigint:
          out += std::to_string(sqlite3_column_int64(rows.s, col));
          break;
        case column_type::double_precision:
          append_copy_double(out, sqlite3_column_double(rows.s, col));
          break;
        case column_type::bytea: {
          const auto* p = static_cast<const char*>(sqlite3_column_blob(rows.s, col));
          append_copy_bytea(out,
                            std::string_view(p == nullptr ? "" : p,
                                             static_cast<std::size_t>(sqlite3_column_bytes(rows.s, col))));
          break;
        }
        case column_type::date:
        case column_type::timestamp:
        case column_type::text: {
          // SQLite's own text form of numbers; blob bytes taken as text.
          const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(rows.s, col));
          const std::string_view raw(p == nullptr ? "" : p,
                                     static_cast<std::size_t>(sqlite3_column_bytes(rows.s, col)));
          append_copy_text(out, storable_text(raw, repairs));
          break;
        }
      }
    }
    out += '\n';
    line(out);
  }
}

}  // namespace sqlmorph::load
