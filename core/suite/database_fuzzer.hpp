#pragma once
// Fuzzed databases: the original's schema (tables, indexes, views) with made-up rows. Per column a
// generator (column_generators.hpp) seeded with values sampled from the original and the constants
// of the gold queries; tables filled parents first, each foreign key taking values its parent
// holds; primary keys and unique constraints respected (a row that would break one is drawn again,
// then left out).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "suite/column_generators.hpp"
#include "suite/neighbour_queries.hpp"
#include "suite/seeded_random.hpp"
#include "suite/sqlite_database.hpp"

namespace sqlmorph::core::suite {

struct fuzz_options {
  /// Each candidate draws its tables' sizes between 1 and one of these maxima (in turn): small
  /// tables keep every query fast, varied sizes tell LIMIT and aggregates apart.
  std::vector<std::size_t> max_rows = {3, 8, 15, 30};
  /// Values sampled from each column of the original.
  std::size_t samples_per_column = 40;
};

/// What the fuzzer knows of one database: its schema and a generator per column.
struct fuzz_plan {
  schema_info schema;
  /// generators[t][c]: table t, column c of `schema`.
  std::vector<std::vector<column_generator>> generators;
  /// Table indices, parents before children (cycles broken in schema order).
  std::vector<std::size_t> fill_order;
};

/// Reads the schema and samples of `original` and the constants of `gold_queries`.
fuzz_plan plan_fuzzing(sqlite_database& original, const std::vector<std::string>& gold_queries,
                       const fuzz_options& options = {});

/// The tables and columns (with kinds) for the neighbour queries.
neighbour_schema schema_for_neighbours(const fuzz_plan& plan);

/// Writes a new database `file` (replacing it) from `plan`; `candidate` (0, 1, ...) picks the size
/// range. Throws std::runtime_error when SQLite refuses the schema.
void write_fuzzed_database(const fuzz_plan& plan, const std::filesystem::path& file, seeded_random& random,
                           std::size_t candidate, const fuzz_options& options = {});

}  // namespace sqlmorph::core::suite
