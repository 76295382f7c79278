#pragma once
// Neighbour queries of a gold query (Zhong, Yu and Klein 2020): near misses made by one token-level
// edit, which a test suite must tell apart from the gold query. Edits:
//  - drop: DISTINCT, a LIMIT, the ORDER BY or GROUP BY clause, one conjunct (or disjunct) of a WHERE
//    or HAVING condition (the whole clause when it has one);
//  - replace within a family: aggregates (COUNT SUM AVG MIN MAX), comparison operators, ASC/DESC,
//    arithmetic (+ - * /), AND/OR, LIKE/NOT LIKE, IN/NOT IN, a column by another column of a
//    compatible kind of the tables the query names;
//  - perturb a constant: integers ±1 and a random one, reals ±0.01, strings by a substring and by
//    adding or removing `%`.
// Deterministic for a given random generator state. Whether a neighbour runs on the schema is for the
// caller to check (sqlite_database::prepare_error).

#include <string>
#include <string_view>
#include <vector>

#include "suite/seeded_random.hpp"
#include "suite/value_kind.hpp"

namespace sqlmorph::core::suite {

/// The columns a neighbour may swap in: every table of the database with its columns' kinds.
struct neighbour_schema {
  struct column {
    std::string name;
    value_kind kind = value_kind::text;
  };
  struct table {
    std::string name;
    std::vector<column> columns;
  };
  std::vector<table> tables;
};

struct neighbour_query {
  std::string sql;
  /// The edit: "drop", "aggregate", "comparison", "order", "arithmetic", "logic", "like", "in",
  /// "column", "number", "string".
  std::string family;
};

struct neighbour_options {
  /// At most this many other columns are tried at each column position (chosen at random).
  std::size_t columns_per_position = 4;
};

/// Every distinct neighbour of `gold` (never `gold` itself), in the order of the edits' positions.
std::vector<neighbour_query> neighbour_queries(std::string_view gold, const neighbour_schema& schema,
                                               seeded_random& random, const neighbour_options& options = {});

/// The constants a query types: numbers and strings (the contents of '...' and of "..." that name no
/// column or table), with `%` removed. For seeding the fuzzer.
std::vector<std::string> query_string_constants(std::string_view sql, const neighbour_schema& schema);
std::vector<double> query_number_constants(std::string_view sql);

}  // namespace sqlmorph::core::suite
