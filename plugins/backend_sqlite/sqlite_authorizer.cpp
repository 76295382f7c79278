// The authorizer: predicted SQL is untrusted, so every action but reading is refused while the
// statement is prepared — writes, schema changes, ATTACH, transactions, PRAGMAs that set anything,
// and functions that load code or touch files.

#include <array>
#include <cstring>
#include <string>

#include "sqlite_connection.hpp"

namespace sqlmorph::sqlite {
namespace {

// PRAGMAs that only report on the schema; their argument, if any, names a table or index.
constexpr std::array<const char*, 12> schema_pragmas = {
    "table_info",       "table_xinfo",    "table_list",    "index_list",  "index_info",  "index_xinfo",
    "foreign_key_list", "collation_list", "function_list", "module_list", "pragma_list", "database_list"};

// PRAGMAs that read a setting when given no value (with a value they would change it).
constexpr std::array<const char*, 16> reading_pragmas = {
    "application_id", "user_version",    "schema_version", "data_version", "encoding",     "page_size",
    "page_count",     "freelist_count",  "auto_vacuum",    "foreign_keys", "journal_mode", "query_only",
    "cache_size",     "compile_options", "synchronous",    "temp_store"};

// Functions that load code, change connection state or reach files.
constexpr std::array<const char*, 5> refused_functions = {"load_extension", "fts3_tokenizer", "readfile",
                                                          "writefile", "edit"};

bool equals_ignore_case(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return false;
  for (; *a && *b; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return *a == *b;
}

const char* action_name(int action) {
  switch (action) {
    case SQLITE_CREATE_INDEX:
      return "CREATE INDEX";
    case SQLITE_CREATE_TABLE:
      return "CREATE TABLE";
    case SQLITE_CREATE_TEMP_INDEX:
      return "CREATE TEMP INDEX";
    case SQLITE_CREATE_TEMP_TABLE:
      return "CREATE TEMP TABLE";
    case SQLITE_CREATE_TEMP_TRIGGER:
      return "CREATE TEMP TRIGGER";
    case SQLITE_CREATE_TEMP_VIEW:
      return "CREATE TEMP VIEW";
    case SQLITE_CREATE_TRIGGER:
      return "CREATE TRIGGER";
    case SQLITE_CREATE_VIEW:
      return "CREATE VIEW";
    case SQLITE_DELETE:
      return "DELETE";
    case SQLITE_DROP_INDEX:
      return "DROP INDEX";
    case SQLITE_DROP_TABLE:
      return "DROP TABLE";
    case SQLITE_DROP_TEMP_INDEX:
      return "DROP TEMP INDEX";
    case SQLITE_DROP_TEMP_TABLE:
      return "DROP TEMP TABLE";
    case SQLITE_DROP_TEMP_TRIGGER:
      return "DROP TEMP TRIGGER";
    case SQLITE_DROP_TEMP_VIEW:
      return "DROP TEMP VIEW";
    case SQLITE_DROP_TRIGGER:
      return "DROP TRIGGER";
    case SQLITE_DROP_VIEW:
      return "DROP VIEW";
    case SQLITE_INSERT:
      return "INSERT";
    case SQLITE_PRAGMA:
      return "PRAGMA";
    case SQLITE_TRANSACTION:
      return "a transaction statement";
    case SQLITE_UPDATE:
      return "UPDATE";
    case SQLITE_ATTACH:
      return "ATTACH";
    case SQLITE_DETACH:
      return "DETACH";
    case SQLITE_ALTER_TABLE:
      return "ALTER TABLE";
    case SQLITE_REINDEX:
      return "REINDEX";
    case SQLITE_ANALYZE:
      return "ANALYZE";
    case SQLITE_CREATE_VTABLE:
      return "CREATE VIRTUAL TABLE";
    case SQLITE_DROP_VTABLE:
      return "DROP VIRTUAL TABLE";
    case SQLITE_FUNCTION:
      return "function";
    case SQLITE_SAVEPOINT:
      return "SAVEPOINT";
    default:
      return "an action that is not a read";
  }
}

std::string text(const char* s) {
  return s != nullptr ? s : "";
}

bool listed(const auto& names, const char* name) {
  for (const char* n : names) {
    if (equals_ignore_case(name, n)) return true;
  }
  return false;
}

// What a refused action does, in words ("DELETE from table items", "PRAGMA journal_mode = wal").
std::string refused_action(int action, const char* arg1, const char* arg2) {
  switch (action) {
    case SQLITE_INSERT:
      return "INSERT into table " + text(arg1);
    case SQLITE_DELETE:
      return "DELETE from table " + text(arg1);
    case SQLITE_UPDATE:
      return "UPDATE of " + text(arg1) + "." + text(arg2);
    case SQLITE_PRAGMA:
      return "PRAGMA " + text(arg1) + (arg2 != nullptr ? " = " + text(arg2) : "");
    case SQLITE_FUNCTION:
      return "the function " + text(arg2) + "(), which loads code or reaches outside the database";
    case SQLITE_TRANSACTION:
      return "a transaction statement (" + text(arg1) + ")";
    case SQLITE_SAVEPOINT: {
      const std::string op = text(arg1);
      return (op == "BEGIN" ? "SAVEPOINT " : op == "ROLLBACK" ? "ROLLBACK TO " : op + " ") + text(arg2);
    }
    case SQLITE_ATTACH:
      return "ATTACH '" + text(arg1) + "'";
    case SQLITE_ALTER_TABLE:
      return "ALTER TABLE " + text(arg2);  // arg1 is the schema
    case SQLITE_CREATE_VTABLE:
      return "CREATE VIRTUAL TABLE " + text(arg1) + " (module " + text(arg2) + ")";
    default:
      return std::string(action_name(action)) + (arg1 != nullptr ? " " + text(arg1) : "");
  }
}

int authorize(void* user, int action, const char* arg1, const char* arg2, const char* schema, const char*) {
  auto* owner = static_cast<sqlite_connection*>(user);
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_UPDATE:
      // SQLite 3.40 asks about "UPDATE sqlite_master" while an eponymous virtual table (json_each,
      // pragma_table_info, ...) declares its columns: the schema-table update of CREATE TABLE,
      // compiled and thrown away. A statement of the query cannot update the schema table (SQLite
      // refuses it before asking, writable_schema is refused, the file is read-only), and DDL that
      // would is refused at its first action (INSERT into sqlite_master, CREATE, DROP, ALTER).
      if (text(arg1) == "sqlite_master" && text(schema) == "main") return SQLITE_OK;
      break;
    case SQLITE_FUNCTION:
      if (!listed(refused_functions, arg2)) return SQLITE_OK;
      break;
    case SQLITE_PRAGMA:
      if (listed(schema_pragmas, arg1)) return SQLITE_OK;
      if (arg2 == nullptr && listed(reading_pragmas, arg1)) return SQLITE_OK;
      break;
    default:
      break;
  }
  // SQLite's bookkeeping of a schema change (a DROP TABLE deletes from sqlite_master) is named by
  // the statement when nothing else is refused.
  const bool bookkeeping = (action == SQLITE_DELETE || action == SQLITE_INSERT || action == SQLITE_UPDATE) &&
                           arg1 != nullptr && std::strncmp(arg1, "sqlite_", 7) == 0;
  owner->note_denial(refused_action(action, arg1, arg2), bookkeeping);
  return SQLITE_DENY;
}

}  // namespace

void install_authorizer(sqlite3* db, sqlite_connection* owner) {
  sqlite3_set_authorizer(db, &authorize, owner);
}

}  // namespace sqlmorph::sqlite
