#include "driver_profile.hpp"

#include <array>
#include <cctype>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::odbc {
namespace {

// The SQLite ODBC driver (Christian Werner's sqliteodbc, Debian libsqliteodbc).
constexpr std::array sqlite_forced = {
    // Without it the driver creates a missing database file when connecting.
    forced_attribute{"NoCreat", "1"},
    // Without it the driver runs the whole query and keeps every row in memory inside
    // SQLExecDirect: no cap could stop a huge result, and the first row would come late.
    forced_attribute{"StepAPI", "1"},
    // Without it the driver replaces a column's label by the text after its last '.' when the
    // result has one column or all come from one table ("1.5*2" becomes "5*2"). It also turns on
    // SQLite's table.column names, which the session turns off again.
    forced_attribute{"LongNames", "1"},
};
constexpr std::array sqlite_defaults = {
    // The driver waits up to 100 s for a lock held by another process: 5 s instead, as the native
    // SQLite backend's busy_timeout_ms.
    forced_attribute{"Timeout", "5000"},
};
constexpr std::array<std::string_view, 4> sqlite_session = {
    // The driver ignores SQL_ATTR_ACCESS_MODE; SQLite itself then refuses every write (a
    // `WITH ... DELETE` passes the statement gate). Table-valued pragmas cannot undo it.
    "PRAGMA query_only = 1",
    // SQLite's own column names, as the native backend reports them (see LongNames above).
    "PRAGMA full_column_names = off",
    "PRAGMA short_column_names = on",
    // Reads the header and schema now, so a file that is not a database fails at connection time.
    "SELECT count(*) FROM sqlite_master",
};
constexpr std::array<std::string_view, 8> sqlite_denied = {
    // The driver enables extension loading and registers blob_import/blob_export (read and
    // write any file); the others exist when an extension is loaded.
    "load_extension", "blob_import", "blob_export", "fts3_tokenizer",
    "readfile",       "writefile",   "edit",        "fsdir",
};

// psqlODBC (Debian odbc-postgresql).
constexpr std::array postgres_forced = {
    // Without it the driver fetches the whole result inside SQLExecDirect (see sqlite_forced).
    forced_attribute{"UseDeclareFetch", "1"},
    // booleans as SQL_BIT (integer 1/0, as the PostgreSQL backend gives them), not as text.
    forced_attribute{"BoolsAsChar", "0"},
};
constexpr std::array<std::string_view, 1> postgres_session = {
    // The driver ignores SQL_ATTR_ACCESS_MODE; this makes every transaction READ ONLY (a
    // set_config() inside one is rolled back with it).
    "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
};

const driver_profile generic_profile{driver_family::generic, "the ODBC driver", {}, {}, {}, {}, true};
// Autocommit stays on: in a manual-commit transaction the driver ignores StepAPI and materialises
// every result in SQLExecDirect. query_only makes SQLite refuse every write instead, which leaves
// the rollback nothing to undo.
const driver_profile sqlite_profile{driver_family::sqlite,
                                    "the SQLite ODBC driver",
                                    sqlite_forced,
                                    sqlite_defaults,
                                    sqlite_session,
                                    sqlite_denied,
                                    false};
const driver_profile postgres_profile{
    driver_family::postgres, "psqlODBC", postgres_forced, {}, postgres_session, {}, true};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string text_of(const SQLCHAR* s) {
  return reinterpret_cast<const char*>(s);
}

// The library path registered for a driver name in odbcinst.ini ("" when unknown).
std::string driver_library(SQLHENV env, std::string_view name) {
  SQLCHAR description[512];
  SQLCHAR attributes[4096];
  SQLSMALLINT description_length = 0;
  SQLSMALLINT attributes_length = 0;
  for (SQLUSMALLINT direction = SQL_FETCH_FIRST;
       SQL_SUCCEEDED(SQLDrivers(env, direction, description, sizeof description, &description_length,
                                attributes, sizeof attributes, &attributes_length));
       direction = SQL_FETCH_NEXT) {
    if (!iequals_ascii(text_of(description), name)) continue;
    // attributes: "key=value\0key=value\0\0"
    std::string library;
    for (const char* p = reinterpret_cast<const char*>(attributes); *p != '\0';
         p += std::char_traits<char>::length(p) + 1) {
      const std::string_view a(p);
      if (a.size() > 7 && iequals_ascii(a.substr(0, 7), "Driver=")) library = std::string(a.substr(7));
    }
    return library;  // the next enumeration starts with SQL_FETCH_FIRST: no need to finish this one
  }
  return "";
}

// The driver (name or library path) of a data source in odbc.ini ("" when unknown).
std::string data_source_driver(SQLHENV env, std::string_view dsn) {
  SQLCHAR name[SQL_MAX_DSN_LENGTH + 1];
  SQLCHAR description[1024];
  SQLSMALLINT name_length = 0;
  SQLSMALLINT description_length = 0;
  std::string found;
  for (SQLUSMALLINT direction = SQL_FETCH_FIRST;
       SQL_SUCCEEDED(SQLDataSources(env, direction, name, sizeof name, &name_length, description,
                                    sizeof description, &description_length));
       direction = SQL_FETCH_NEXT) {
    if (found.empty() && iequals_ascii(text_of(name), dsn)) found = text_of(description);
  }
  return found;
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

const driver_profile& profile_of(driver_family family) noexcept {
  switch (family) {
    case driver_family::sqlite:
      return sqlite_profile;
    case driver_family::postgres:
      return postgres_profile;
    case driver_family::generic:
      break;
  }
  return generic_profile;
}

driver_family family_of_driver(std::string_view library_or_name) noexcept {
  std::string s;
  try {
    s = lower(library_or_name);
  } catch (...) {
    return driver_family::generic;
  }
  const std::size_t slash = s.rfind('/');
  const std::string_view file =
      slash == std::string::npos ? std::string_view(s) : std::string_view(s).substr(slash + 1);
  if (file.find("sqlite") != std::string_view::npos) return driver_family::sqlite;
  if (file.find("psqlodbc") != std::string_view::npos || file.find("postgres") != std::string_view::npos) {
    return driver_family::postgres;
  }
  return driver_family::generic;
}

std::string driver_named_by(SQLHENV env, const connection_string& target) {
  std::string driver;
  if (const auto d = target.get("Driver")) {
    driver = *d;
  } else {
    const auto dsn = target.get("DSN");
    driver = data_source_driver(env, dsn && !dsn->empty() ? *dsn : "DEFAULT");
  }
  if (driver.empty() || driver.find('/') != std::string::npos) return driver;
  const std::string library = driver_library(env, driver);
  return library.empty() ? driver : library;
}

bool means_missing_database(driver_family family, const std::vector<diagnostic>& records) {
  for (const diagnostic& d : records) {
    switch (family) {
      case driver_family::sqlite:
        // With NoCreat=1 a missing file fails to open: SQLITE_CANTOPEN (14).
        if (d.native_error == 14 && d.message.find("connect failed") != std::string::npos) return true;
        break;
      case driver_family::postgres:
        // The server's FATAL message (SQLSTATE 3D000 on the server; psqlODBC reports 08001).
        if (d.message.find("database \"") != std::string::npos &&
            d.message.find("\" does not exist") != std::string::npos) {
          return true;
        }
        break;
      case driver_family::generic:
        break;
    }
  }
  return false;
}

std::string denied_function_in(const driver_profile& profile, std::string_view statement) {
  // The raw text, comments and strings included: a dialect may read as code what a tokenizer takes
  // for a comment (SQLite reads `#x` as a parameter, not as a MySQL comment). A query that only
  // mentions such a name in a string is refused too, which is rare and harmless.
  const std::string text = lower(statement);
  for (const std::string_view denied : profile.denied_functions) {
    for (std::size_t at = text.find(denied); at != std::string::npos; at = text.find(denied, at + 1)) {
      const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
      const std::size_t end = at + denied.size();
      const bool ends = end == text.size() || !is_identifier_char(text[end]);
      if (starts && ends) return std::string(denied);
    }
  }
  return "";
}

std::string statement_for(const driver_profile& profile, std::string_view statement) {
  if (profile.family == driver_family::sqlite) {
    for (const sql_token& t : lex_sql(statement)) {
      if (is_trivia(t)) continue;
      if (t.kind == sql_token_kind::word && iequals_ascii(t.text, "values")) {
        return "SELECT * FROM (" + std::string(statement) + "\n)";  // the newline ends a trailing -- comment
      }
      break;
    }
  }
  return std::string(statement);
}

std::string refusal_reason(driver_family family, const std::vector<diagnostic>& records) {
  for (const diagnostic& d : records) {
    // PostgreSQL's read_only_sql_transaction and insufficient_privilege.
    if (d.sqlstate == "25006") return " (the evaluation runs every query in a read-only transaction)";
    if (d.sqlstate == "42501") return " (refused by the privileges of the role the evaluation connects as)";
    if (family == driver_family::sqlite &&
        d.message.find("attempt to write a readonly database") != std::string::npos)
      return " (the evaluation's session is read-only: PRAGMA query_only)";
  }
  return "";
}

}  // namespace sqlmorph::odbc
