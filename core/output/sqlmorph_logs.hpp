#pragma once
// `--sqlmorph-logs DIR`: SQLMorph's per-evaluation log files, for users whose tooling reads them.
// SQLMorph (dais-polymtl/sqlmorph, src/metrics/evaluation.py) dumps the context of each evaluation
// to DIR/<technique>/evaluation-<%Y-%m-%d_%H-%M-%S>.json; this writes the same shape from a unit's
// records and its examples.jsonl lines: predicted_sql, ground_truth_sql, penalize_extra_pred_cols,
// metrics {EX, EXP, EXR, F1}, has_error, error_message, ex_is_one, pred_cols, pred_rows, gt_cols,
// gt_rows (the rows the evidence kept: --keep-rows), ground_truth_cells, predicted_cells,
// matched_cells (where the technique counts cells), latency (seconds), evaluation_timestamp — plus
// sqlmorph's id, system, db_id and status. Names stay unique within one second (a suffix -2, -3 ...).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "eval/record.hpp"

namespace sqlmorph::core {

class sqlmorph_log_writer {
 public:
  /// Creates `dir` if needed. Throws usage_error when it cannot.
  explicit sqlmorph_log_writer(std::filesystem::path dir);

  /// One file per technique record of the unit (judge records have no SQLMorph log); `evidence`
  /// holds the unit's examples.jsonl lines. Throws usage_error naming a file it cannot write.
  void write_unit(const std::vector<std::string>& evidence, const std::vector<record>& records);

  std::size_t files_written() const noexcept { return written_; }

 private:
  std::filesystem::path dir_;
  std::size_t written_ = 0;
};

}  // namespace sqlmorph::core
