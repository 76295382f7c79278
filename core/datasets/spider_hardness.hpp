#pragma once
// Spider's difficulty levels (easy, medium, hard, extra), computed from the gold SQL the way the
// official evaluator does: parse the query as its process_sql.py does, count components
// (count_component1/2, count_others) and classify as eval_hardness does — including its quirks
// (a NOT condition counts as an aggregation in WHERE, and so does every AND/OR in HAVING).

#include <string>
#include <string_view>

namespace sqlmorph::core {

/// "easy", "medium", "hard" or "extra"; empty when the SQL is outside the grammar the official
/// parser accepts (the official evaluator then stops; sqlmorph reports the example's difficulty as
/// unknown).
std::string spider_hardness(std::string_view sql);

}  // namespace sqlmorph::core
