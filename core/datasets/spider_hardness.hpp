#pragma once
// Spider's difficulty levels (easy, medium, hard, extra), computed from the gold SQL the way the
// official evaluator does (eval_hardness over process_sql's parse, sqlmorph/spider_sql.hpp). The
// names are not checked against a schema: difficulty depends only on the shape of the query.

#include <string>
#include <string_view>

namespace sqlmorph::core {

/// "easy", "medium", "hard" or "extra"; empty when the SQL is outside the grammar the official
/// parser accepts (the official evaluator then stops; sqlmorph reports the example's difficulty as
/// unknown).
std::string spider_hardness(std::string_view sql);

}  // namespace sqlmorph::core
