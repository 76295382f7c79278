#include "eval/technique_scoring.hpp"

#include <spdlog/spdlog.h>

#include "errors.hpp"

namespace sqlmorph::core {

std::variant<scores, query_failure> score_technique(const technique& t, const std::string& example_id,
                                                    const std::function<scores()>& score) {
  try {
    return score();
  } catch (const script_error& e) {
    spdlog::warn("{}: technique {}: {}", example_id, t.name(), e.message());
    return query_failure{example_status::script_error, e.full()};
  } catch (const std::exception& e) {
    spdlog::warn("{}: technique {} failed: {}", example_id, t.name(), e.what());
    return query_failure{example_status::technique_error, std::string("technique failed: ") + e.what()};
  }
}

}  // namespace sqlmorph::core
