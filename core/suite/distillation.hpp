#pragma once
// Distillation (Zhong, Yu and Klein 2020): for one database, fuzzed candidate databases are drawn
// one after the other; a candidate is kept only if it tells some gold query apart from a neighbour
// query no database kept so far (the original included) tells apart. Stops when every neighbour is
// told apart or after `max_candidates`. "Told apart" is the comparison the suite is evaluated with
// (by default `spider_official_exec`, the per-database step of `spider_test_suite`): the neighbour is
// wrong on that database.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend_routes.hpp"
#include "suite/database_fuzzer.hpp"
#include "suite/neighbour_queries.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core::suite {

struct gold_query {
  /// Where it was read ("dev_gold.sql:12"), for the report.
  std::string origin;
  std::string sql;
};

struct distillation_options {
  std::uint64_t seed = 0;
  std::size_t max_candidates = 300;
  fuzz_options fuzz;
  neighbour_options neighbours;
  /// Time limits of one query, seconds.
  double gold_timeout = 30;
  double neighbour_timeout = 5;
};

/// What the suite does for one gold query.
struct gold_coverage {
  std::string origin;
  std::string sql;
  /// The gold query fails on the original: no neighbours, not counted.
  std::string gold_error;
  /// Neighbours that prepare on the schema.
  std::size_t neighbours = 0;
  std::size_t distinguished = 0;
  /// The neighbours no database of the suite tells apart (likely equivalent to the gold query).
  std::vector<neighbour_query> equivalent;
  /// Per family (neighbour_query::family): its neighbours, and how many of them were told apart.
  std::map<std::string, std::pair<std::size_t, std::size_t>> families;
};

struct distillation_result {
  /// The kept variants' file names (`<db_id>_1.sqlite` ...), in `work_dir`.
  std::vector<std::string> variants;
  std::size_t candidates_tried = 0;
  /// Candidates on which a gold query failed (never kept).
  std::size_t candidates_failing_gold = 0;
  /// Candidates on which a gold query has no single right answer (its ORDER BY ... LIMIT cuts
  /// between ties, or its rows depend on the order SQLite scans the tables in): never kept.
  std::size_t candidates_order_dependent = 0;
  std::vector<gold_coverage> golds;
  std::size_t neighbours() const;
  std::size_t distinguished() const;
};

/// Distills the suite of `db_id` from its `original` database file, writing the kept variants into
/// `work_dir`. `comparison` must run on the example's database (not databases = "variants"); `routes` must
/// run database files (SQLite). Deterministic for `options.seed` and `db_id`.
distillation_result distill_database(const std::string& db_id, const std::filesystem::path& original,
                                     const std::vector<gold_query>& golds,
                                     const std::filesystem::path& work_dir,
                                     std::shared_ptr<const technique> comparison,
                                     std::shared_ptr<const backend_routes> routes,
                                     const distillation_options& options);

}  // namespace sqlmorph::core::suite
