#include "datasets/cases_file.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "datasets/json_input.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

std::vector<example> read_cases_file(const std::filesystem::path& file,
                                     const std::optional<std::filesystem::path>& db_root) {
  line_reader lines(file);
  return read_cases(lines, db_root ? *db_root : (file.has_parent_path() ? file.parent_path() : "."));
}

std::vector<example> read_cases(line_reader& lines, const std::filesystem::path& base) {
  std::vector<example> out;
  std::map<std::string, std::size_t> first_line_of;
  std::string line;
  while (lines.next(line)) {
    const std::string at = lines.where();
    if (trim(line).empty()) continue;
    if (!looks_like_json(line)) {
      throw usage_error(
          at +
          ": expected one JSON object per line (the cases format); Spider and BIRD files go with "
          "--benchmark spider|bird --gold ... --pred ...");
    }
    const nlohmann::json j = parse_input_json(line, lines.name(), lines.line_number());
    if (!j.is_object()) throw usage_error(at + ": expected a JSON object");
    const auto text = [&](const char* key, bool required) -> std::string {
      const auto it = j.find(key);
      if (it == j.end() || it->is_null()) {
        if (required) throw usage_error(at + ": missing field '" + key + "'");
        return {};
      }
      if (std::string(key) == "id") {
        if (it->is_number_unsigned()) return std::to_string(it->get<std::uint64_t>());
        if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
      }
      if (!it->is_string()) throw usage_error(at + ": field '" + key + "' must be a string");
      return it->get<std::string>();
    };
    example ex;
    ex.id = text("id", true);
    ex.id_is_number = j["id"].is_number_integer();
    const std::string db = text("db", false);
    ex.gold = text("gold", true);
    ex.pred = text("pred", true);
    ex.db_id = text("db_id", false);
    ex.question = text("question", false);
    ex.evidence = text("evidence", false);
    ex.difficulty = text("difficulty", false);
    ex.system = text("system", false);
    ex.origin = at;
    ex.item = ex.id;  // the same id under several systems is the same question
    if (ex.id.empty()) throw usage_error(at + ": field 'id' is empty");
    if (db.empty() && ex.db_id.empty()) {
      throw usage_error(
          at +
          ": give 'db' (a database file) or 'db_id' (a database name, for backends whose target "
          "uses {db_id})");
    }
    if (!db.empty()) {
      const std::filesystem::path db_path(db);
      ex.db = (db_path.is_absolute() ? db_path : base / db_path).lexically_normal().string();
      if (ex.db_id.empty()) ex.db_id = db_path.stem().string();
    }
    const std::string key = ex.system + "\x1f" + ex.id;
    if (auto [it, added] = first_line_of.emplace(key, lines.line_number()); !added) {
      throw usage_error(at + ": duplicate id '" + ex.id + "' (first on line " + std::to_string(it->second) +
                        ")");
    }
    out.push_back(std::move(ex));
  }
  // An empty file is a mistake (a wrong path, a failed export), not a benchmark of zero examples.
  if (out.empty()) throw usage_error(lines.name() + ": no case in the file (it is empty or blank)");
  return out;
}

}  // namespace sqlmorph::core
