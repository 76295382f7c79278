#pragma once
// `sqlmorph report`: one self-contained HTML file (style, script and data inline; no network) over
// one or more finished runs — an overview of systems × technique variants with intervals, charts,
// an example explorer with filters and each example's evidence, and a system-vs-system view. The
// page and its script are report/report.{html,css,js}, compiled in (report_assets.hpp).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace sqlmorph::core {

struct report_options {
  /// Rows of each result shown per example (from what examples.jsonl kept).
  std::size_t rows = 10;
};

/// The report of the runs in `run_dirs` (their summary.json, results.jsonl and examples.jsonl).
/// Throws usage_error naming a folder or file that is missing or malformed.
std::string build_report(const std::vector<std::filesystem::path>& run_dirs, const report_options& options);

}  // namespace sqlmorph::core
