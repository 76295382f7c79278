#include "eval/record.hpp"

namespace sqlmorph::core {

record record_of(const example& ex, std::string technique) {
  record r;
  relabel(r, ex);
  r.technique = std::move(technique);
  return r;
}

void relabel(record& r, const example& ex) {
  r.id = ex.id;
  r.id_is_number = ex.id_is_number;
  r.db_id = ex.db_id;
  r.system = ex.system;
  // An example without a difficulty keeps the one its record was given from the gold query (Spider
  // exact match's hardness): the examples that share a record share their gold query.
  if (!ex.difficulty.empty() || r.difficulty.empty()) r.difficulty = ex.difficulty;
}

std::string_view example_status_name(example_status s) noexcept {
  switch (s) {
    case example_status::ok:
      return "ok";
    case example_status::pred_error:
      return "pred_error";
    case example_status::gold_error:
      return "gold_error";
    case example_status::timeout:
      return "timeout";
    case example_status::db_missing:
      return "db_missing";
    case example_status::truncated:
      return "truncated";
    case example_status::backend_error:
      return "backend_error";
    case example_status::technique_error:
      return "technique_error";
    case example_status::script_error:
      return "script_error";
    case example_status::pred_missing:
      return "pred_missing";
    case example_status::judge_error:
      return "judge_error";
  }
  return "";
}

bool parse_example_status(std::string_view name, example_status& out) noexcept {
  for (int s = 0; s < static_cast<int>(example_status_count); ++s) {
    if (example_status_name(static_cast<example_status>(s)) == name) {
      out = static_cast<example_status>(s);
      return true;
    }
  }
  return false;
}

}  // namespace sqlmorph::core
