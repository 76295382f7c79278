#pragma once
// One value generator per column of a fuzzed database: values of the column's kind (value_kind.hpp),
// drawn from a pool (values sampled from the original database and the constants the gold queries
// type), from small changes of pool values, or made up from the kind alone (so an empty original
// still gives data).

#include <string>
#include <vector>

#include "suite/seeded_random.hpp"
#include "suite/sqlite_database.hpp"
#include "suite/value_kind.hpp"

namespace sqlmorph::core::suite {

class column_generator {
 public:
  /// `pool`: the values to draw from and vary (any storage class; those that do not fit the kind
  /// are still drawn as they are, as the original holds them). `nullable`: may give NULL.
  column_generator(value_kind kind, std::vector<sql_value> pool, bool nullable);

  sql_value next(seeded_random& random) const;

  value_kind kind() const noexcept { return kind_; }
  const std::vector<sql_value>& pool() const noexcept { return pool_; }

 private:
  sql_value made_up(seeded_random& random) const;
  sql_value varied(const sql_value& v, seeded_random& random) const;

  value_kind kind_;
  std::vector<sql_value> pool_;
  bool nullable_;
  // The range of the pool's numbers (for made-up numbers): [lo_, hi_].
  double lo_ = 0;
  double hi_ = 100;
  bool has_time_of_day_ = false;  // the pool's dates carry a time ("2019-03-04 10:00:00")
};

}  // namespace sqlmorph::core::suite
