#include "eval/record.hpp"

namespace sqlmorph::core {

std::string_view example_status_name(example_status s) noexcept {
  switch (s) {
    case example_status::ok: return "ok";
    case example_status::pred_error: return "pred_error";
    case example_status::gold_error: return "gold_error";
    case example_status::timeout: return "timeout";
    case example_status::db_missing: return "db_missing";
    case example_status::truncated: return "truncated";
    case example_status::backend_error: return "backend_error";
    case example_status::technique_error: return "technique_error";
    case example_status::script_error: return "script_error";
  }
  return "";
}

}  // namespace sqlmorph::core
