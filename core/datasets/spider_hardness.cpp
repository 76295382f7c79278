#include "datasets/spider_hardness.hpp"

#include <sqlmorph/spider_sql.hpp>

namespace sqlmorph::core {

std::string spider_hardness(std::string_view sql) {
  const spider::parse_result parsed = spider::parse(sql, nullptr);
  return parsed.sql ? spider::hardness(*parsed.sql) : std::string();
}

}  // namespace sqlmorph::core
