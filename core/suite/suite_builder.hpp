#pragma once
// `sqlmorph suite build`: the gold queries of a benchmark grouped by database, one distilled suite per
// database (distillation.hpp) in the official layout — SUITE_DIR/<db_id>/<db_id>.sqlite (the
// original) and <db_id>_1.sqlite ... (the variants), plus <db_id>/distillation.json (what each gold
// query's neighbours did) — and SUITE_DIR/suite.json, the manifest.
//
// Databases are built in parallel, each from its own generator (the seed and the db_id), so the
// suite does not depend on --jobs. Each is built in SUITE_DIR/.<db_id>.partial and renamed when
// complete: a re-run skips the databases already built. suite.json is written first, with the
// settings (`"complete": false`): it marks the folder as a suite's, so a build never writes into a
// folder it did not make, nor completes a suite with other settings than those it was begun with.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend_routes.hpp"
#include "suite/distillation.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core::suite {

struct suite_request {
  /// "spider" (--gold: SQL<TAB>db_id lines) or "bird" (--gold: the questions' JSON list); empty
  /// with `cases`.
  std::string benchmark;
  std::optional<std::filesystem::path> gold;
  /// A JSONL cases file (each case's `db` and `gold`) instead of a benchmark.
  std::optional<std::filesystem::path> cases;
  std::optional<std::filesystem::path> db_root;
  std::filesystem::path out;
  std::uint64_t seed = 0;
  /// From 1 to max_candidates_limit.
  std::size_t max_candidates = 300;
  /// Only the gold queries of these db_ids (all when empty); each must have some.
  std::vector<std::string> databases;
  unsigned jobs = 1;
  /// Leave out (with a warning) the databases whose file is missing instead of refusing the build.
  bool skip_missing = false;
  /// Progress lines on this stream (none when null).
  std::ostream* progress = nullptr;
};

/// The most candidates --max-candidates may ask for per database (a few hours of building).
inline constexpr std::size_t max_candidates_limit = 100000;

/// The gold queries of one database.
struct database_golds {
  std::string db_id;
  std::filesystem::path original;
  std::vector<gold_query> golds;
};

/// The gold queries of the request, by db_id (sorted; only those of `databases` when it names
/// some). Throws input_error naming the file and line for a malformed line, and the database file of
/// a db_id that has none (unless `skip_missing`); usage_error for a name of `databases` no gold
/// query is on, listing those there are.
std::vector<database_golds> read_suite_golds(const suite_request& request);

/// Builds (or completes) the suite; returns the manifest it wrote to SUITE_DIR/suite.json (every
/// database the folder holds, those built before included). Throws std::runtime_error, before
/// building anything, when SUITE_DIR is not empty and not a suite's, or is one built with another
/// seed, --max-candidates or comparison; and after, naming the databases that failed (the others
/// are built).
nlohmann::ordered_json build_suite(const suite_request& request, std::shared_ptr<const technique> comparison,
                                   std::shared_ptr<const backend_routes> routes);

}  // namespace sqlmorph::core::suite
