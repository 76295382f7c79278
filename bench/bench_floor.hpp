#pragma once
// The floor of PERF.md: executing queries with plain sqlite3 and fetching every row — what any
// evaluator must at least do — measured in the same run as sqlmorph.

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "bench_util.hpp"

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

/// PERF.md's floor as PERF.md measured it: bench/spider_floor.py executes the gold and predicted
/// queries of one Spider prediction file with Python's sqlite3 and fetches every row, `runs` times
/// (the time inside the script, not the interpreter's start). No runs when python3 is missing.
inline timing python_floor(int runs, const std::filesystem::path& gold, const std::filesystem::path& pred,
                           const std::filesystem::path& db_root) {
  const bool have_python =
      ::access("/usr/bin/python3", X_OK) == 0 || std::system("command -v python3 >/dev/null 2>&1") == 0;
  if (!have_python) return {};
  const std::string script = std::string(SQLMORPH_BENCH_SOURCE_DIR) + "/bench/spider_floor.py";
  const std::string cmd =
      "python3 " + script + " " + gold.string() + " " + pred.string() + " " + db_root.string();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    std::FILE* p = ::popen(cmd.c_str(), "r");
    double s = -1;
    if (p != nullptr && std::fscanf(p, "%lf", &s) == 1 && s >= 0) ms.push_back(s * 1000);
    if (p != nullptr) ::pclose(p);
  }
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2], ms.back(), static_cast<int>(ms.size())};
}

}  // namespace sqlmorph::bench
