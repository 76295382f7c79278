// Builds a SQLite database from a SQL script: make_database SCRIPT.sql OUT.sqlite
// Used at build time for the demo database; the script is ours, so writing is fine here.

#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SCRIPT.sql OUT.sqlite\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  std::ostringstream sql;
  sql << in.rdbuf();
  std::remove(argv[2]);
  sqlite3* db = nullptr;
  if (sqlite3_open(argv[2], &db) != SQLITE_OK) {
    std::fprintf(stderr, "%s: %s\n", argv[2], sqlite3_errmsg(db));
    return 1;
  }
  char* err = nullptr;
  if (sqlite3_exec(db, sql.str().c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::fprintf(stderr, "%s: %s\n", argv[1], err ? err : "error");
    sqlite3_free(err);
    sqlite3_close(db);
    std::remove(argv[2]);
    return 1;
  }
  sqlite3_close(db);
  return 0;
}
