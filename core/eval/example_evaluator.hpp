#pragma once
// Scores one example under every technique variant of a run: rewrites and executes each distinct
// query once, normalizes each result once per normalizer chain, matches rows once per matcher pair
// (example_run.hpp); techniques over database variants or alternative predictions go through
// variant_suite.hpp.

#include <memory>
#include <vector>

#include "eval/example.hpp"
#include "eval/query_executor.hpp"
#include "eval/record.hpp"
#include "eval/variant_suite.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

class example_evaluator {
 public:
  /// `routes` says which backend runs each query.
  example_evaluator(query_executor& queries, std::vector<std::shared_ptr<const technique>> techniques,
                    std::shared_ptr<const backend_routes> routes);

  /// One record per technique variant, in the order the variants were given. Never throws for
  /// problems of the example itself: failures become statuses.
  std::vector<record> evaluate(const example& ex);

  const std::vector<std::shared_ptr<const technique>>& techniques() const noexcept { return techniques_; }

 private:
  query_executor& queries_;
  std::vector<std::shared_ptr<const technique>> techniques_;
  std::shared_ptr<const backend_routes> routes_;
  variant_folders variants_;  // the test-suite folders listed so far
};

}  // namespace sqlmorph::core
