// The authorizer: predicted SQL is untrusted, so every action but reading is refused while the
// statement is prepared — writes, schema changes, ATTACH, transactions, PRAGMAs that set anything,
// and functions that load code or touch files.

#include <array>
#include <cstring>
#include <string>

#include "sqlite_connection.hpp"

namespace sqlmorph::sqlite {
namespace {

// PRAGMAs that only report on the schema.
constexpr std::array<const char*, 9> readable_pragmas = {
    "table_info",       "table_xinfo",    "index_list",    "index_info", "index_xinfo",
    "foreign_key_list", "collation_list", "function_list", "pragma_list"};

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

int authorize(void* user, int action, const char* arg1, const char* arg2, const char*, const char*) {
  auto* owner = static_cast<sqlite_connection*>(user);
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      for (const char* f : refused_functions) {
        if (equals_ignore_case(arg2, f)) {
          owner->note_denial(std::string("the function ") + arg2 + "()", false);
          return SQLITE_DENY;
        }
      }
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      for (const char* p : readable_pragmas) {
        if (equals_ignore_case(arg1, p)) return SQLITE_OK;
      }
      owner->note_denial(
          std::string("PRAGMA ") + (arg1 ? arg1 : "") + (arg2 ? std::string(" = ") + arg2 : ""), false);
      return SQLITE_DENY;
    default: {
      std::string what = action_name(action);
      if (arg1 != nullptr && action != SQLITE_TRANSACTION) what += std::string(" ") + arg1;
      const bool bookkeeping =
          (action == SQLITE_DELETE || action == SQLITE_INSERT || action == SQLITE_UPDATE) &&
          arg1 != nullptr && std::strncmp(arg1, "sqlite_", 7) == 0;
      owner->note_denial(what, bookkeeping);
      return SQLITE_DENY;
    }
  }
}

}  // namespace

void install_authorizer(sqlite3* db, sqlite_connection* owner) {
  sqlite3_set_authorizer(db, &authorize, owner);
}

}  // namespace sqlmorph::sqlite
