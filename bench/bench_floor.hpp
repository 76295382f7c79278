#pragma once
// The floor of PERF.md: executing queries with plain sqlite3 and fetching every row — what any
// evaluator must at least do — measured in the same run as sqlmorph.

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace sqlmorph::bench {

struct floor_query {
  std::string db;
  std::string sql;
};

/// Executes each query once, in order, one read-only connection per database, copying every text
/// cell out as an evaluator would; a query is stopped after `timeout_seconds` (sqlmorph's default
/// per-query limit). Queries on missing databases are skipped. Returns the cells fetched.
inline std::size_t floor_exec(const std::vector<floor_query>& queries, double timeout_seconds = 30) {
  std::map<std::string, sqlite3*> dbs;
  std::size_t cells = 0;
  std::vector<std::string> texts;
  using clock = std::chrono::steady_clock;
  clock::time_point deadline;
  for (const floor_query& q : queries) {
    auto it = dbs.find(q.db);
    if (it == dbs.end()) {
      sqlite3* h = nullptr;
      if (!std::filesystem::exists(q.db) ||
          sqlite3_open_v2(q.db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(h);
        h = nullptr;
      } else {
        sqlite3_progress_handler(
            h, 10000, [](void* d) { return clock::now() > *static_cast<clock::time_point*>(d) ? 1 : 0; },
            &deadline);
      }
      it = dbs.emplace(q.db, h).first;
    }
    sqlite3* db = it->second;
    if (db == nullptr) continue;
    deadline = clock::now() +
               std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(timeout_seconds));
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, q.sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK || stmt == nullptr) {
      sqlite3_finalize(stmt);
      continue;
    }
    const int cols = sqlite3_column_count(stmt);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      for (int c = 0; c < cols; ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_TEXT) {
          texts.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                             static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)));
        }
        ++cells;
      }
      if (texts.size() > 100000) texts.clear();  // copied, as an evaluator would; not kept forever
    }
    sqlite3_finalize(stmt);
  }
  for (auto& [path, db] : dbs) sqlite3_close(db);
  return cells;
}

}  // namespace sqlmorph::bench
