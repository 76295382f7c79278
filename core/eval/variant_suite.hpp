#pragma once
// A verdict technique over a test suite: the official Spider test-suite evaluation
// (test-suite-sql-eval, exec_eval.py eval_exec_match). Both queries run on every database variant
// of the example's folder; the prediction is correct only if the technique's verdict is 1 on each.
// With a candidates component (--plug_value), alternatives to the prediction are tried in turn
// when it fails, and the example is correct if any alternative passes every variant.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "eval/example_run.hpp"
#include "eval/record.hpp"

namespace sqlmorph::core {

/// The database files of a test-suite folder: names ending in `.sqlite`, sorted by name (the
/// official code takes `os.listdir` order, which the file system decides). Listed once per folder.
class variant_folders {
 public:
  /// The sorted file names, or an empty list when the folder is missing or has none.
  const std::vector<std::string>& files(const std::filesystem::path& folder);

 private:
  std::map<std::filesystem::path, std::vector<std::string>> listed_;
};

/// Scores `t` (is_suite()) on the example of `run` into `r` (labels already set): status, EX, and
/// the extra fields `variants` (databases the prediction as written was run on before the verdict),
/// `failed_variant` (the first that disagreed or failed, or null) and, with alternatives,
/// `candidates` (alternatives tried). A gold query that fails on a variant makes the example a
/// gold_error naming the variant (the official code stops the whole run with an assertion there).
void evaluate_over_suite(example_run& run, variant_folders& folders, const technique& t, record& r);

}  // namespace sqlmorph::core
