#include "sqlmorph/match.hpp"

namespace sqlmorph {

std::string_view alignment_mode_name(column_alignment::mode m) noexcept {
  switch (m) {
    case column_alignment::mode::paired:
      return "paired";
    case column_alignment::mode::ignored:
      return "ignored";
    case column_alignment::mode::permutable:
      return "permutable";
  }
  return "";
}

scores zero_scores(const metric_set& m) {
  scores s;
  if (m.ex) s.ex = 0.0;
  if (m.exp) s.exp = 0.0;
  if (m.exr) s.exr = 0.0;
  if (m.f1) s.f1 = 0.0;
  s.extra = m.failure_extra;
  return s;
}

void precision_recall_f1(double matched, double gold_cells, double pred_cells, scores& out) {
  double precision;
  double recall;
  if (gold_cells == 0 && pred_cells == 0) {
    precision = 1.0;
    recall = 1.0;
  } else if (gold_cells == 0) {
    precision = 0.0;
    recall = 1.0;
  } else if (pred_cells == 0) {
    precision = 1.0;
    recall = 0.0;
  } else {
    precision = matched / pred_cells;
    recall = matched / gold_cells;
  }
  out.exp = precision;
  out.exr = recall;
  if (gold_cells == 0 && pred_cells == 0) {
    out.f1 = 1.0;
  } else if (gold_cells == 0 || pred_cells == 0) {
    out.f1 = 0.0;
  } else {
    out.f1 = (precision + recall) == 0 ? 0.0 : 2 * precision * recall / (precision + recall);
  }
}

}  // namespace sqlmorph
