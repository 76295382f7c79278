#pragma once
// Scores one example under every technique variant of a run: rewrites and executes each distinct
// query once, normalizes each result once per normalizer chain, matches rows once per matcher pair
// (example_run.hpp); techniques over database variants or alternative predictions go through
// variant_suite.hpp.

#include <memory>
#include <vector>

#include "eval/equal_result_scores.hpp"
#include "eval/example.hpp"
#include "eval/example_evidence.hpp"
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
  /// problems of the example itself: failures become statuses. With `evidence`, also the example's
  /// evidence (example_evidence.hpp: evidence_body) from the first variant that executes queries.
  /// With `shared` (one per question), a technique that reads only the results copies the scores of
  /// an earlier prediction whose results were equal (equal_result_scores.hpp) and stores its own.
  std::vector<record> evaluate(const example& ex, std::string* evidence = nullptr,
                               equal_result_scores* shared = nullptr);

  /// How much of each result the evidence keeps.
  void set_evidence_options(const evidence_options& o) noexcept { evidence_options_ = o; }

  const std::vector<std::shared_ptr<const technique>>& techniques() const noexcept { return techniques_; }

 private:
  query_executor& queries_;
  std::vector<std::shared_ptr<const technique>> techniques_;
  std::shared_ptr<const backend_routes> routes_;
  variant_folders variants_;  // the test-suite folders listed so far
  evidence_options evidence_options_;
};

}  // namespace sqlmorph::core
