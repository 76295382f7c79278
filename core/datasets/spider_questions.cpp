#include "datasets/spider_questions.hpp"

#include <nlohmann/json.hpp>

#include "datasets/json_input.hpp"
#include "datasets/text_lines.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

void attach_spider_questions(std::vector<example>& examples, const std::filesystem::path& questions) {
  std::error_code ec;
  if (!std::filesystem::exists(questions, ec)) {
    throw usage_error("questions file " + questions.string() + " does not exist");
  }
  const nlohmann::json list = parse_input_json(read_file(questions), questions.string());
  if (!list.is_array())
    throw usage_error(questions.string() + ": expected a list of {\"db_id\", \"question\", ...}");
  for (example& ex : examples) {
    std::size_t i = 0;
    try {
      i = std::stoul(ex.item);
    } catch (const std::exception&) {
      throw usage_error(questions.string() + ": example " + ex.id + " is not a Spider gold line");
    }
    const std::string where = questions.string() + ": entry " + std::to_string(i);
    if (i >= list.size()) {
      throw usage_error(where + " is missing: the file has " + std::to_string(list.size()) +
                        " questions, fewer than the gold file's lines");
    }
    const nlohmann::json& q = list[i];
    if (!q.is_object() || !q.contains("question") || !q["question"].is_string()) {
      throw usage_error(where + " has no \"question\" string");
    }
    if (q.contains("db_id") && q["db_id"].is_string() && q["db_id"].get<std::string>() != ex.db_id) {
      throw usage_error(where + " is about db_id '" + q["db_id"].get<std::string>() + "' but gold line " +
                        std::to_string(i + 1) + " is about '" + ex.db_id +
                        "' (is it the questions of this gold file?)");
    }
    ex.question = q["question"].get<std::string>();
  }
}

std::optional<std::filesystem::path> spider_questions_next_to(const std::filesystem::path& gold) {
  const std::filesystem::path candidate =
      (gold.has_parent_path() ? gold.parent_path() : std::filesystem::path(".")) / "dev.json";
  std::error_code ec;
  if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  return std::nullopt;
}

}  // namespace sqlmorph::core
