#include "datasets/bird_files.hpp"

#include <charconv>
#include <map>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "datasets/database_folder.hpp"
#include "datasets/json_input.hpp"
#include "datasets/text_lines.hpp"
#include "errors.hpp"

namespace sqlmorph::core {
namespace {

constexpr std::string_view separator = "\t----- bird -----\t";

nlohmann::json parse_json_file(const std::filesystem::path& file, const char* what) {
  const std::string text = read_file(file);
  if (!looks_like_json(text)) {
    throw usage_error(file.string() + ": not JSON, but BIRD's " + what +
                      " are a JSON document: Spider files go with --benchmark spider, a JSONL cases file "
                      "with --cases");
  }
  return parse_input_json(text, file.string());
}

// The position a prediction's key names: only its plain decimal form ("0", "17"), so that no two
// keys ("0" and "00") name one question and one silently replace the other.
std::size_t question_position(const std::string& key, const std::filesystem::path& file,
                              std::size_t questions) {
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), index);
  const bool plain = !key.empty() && (key == "0" || key[0] != '0') &&
                     key.find_first_not_of("0123456789") == std::string::npos;
  if (!plain || ec != std::errc() || end != key.data() + key.size()) {
    throw usage_error(file.string() + ": key \"" + key +
                      "\" is not a question position: keys are the questions' positions written in decimal "
                      "digits without leading zeros, \"0\" to \"" +
                      std::to_string(questions - 1) + "\"");
  }
  return index;
}

}  // namespace

std::vector<example> read_bird_files(const bird_files& files) {
  const nlohmann::json questions = parse_json_file(files.gold, "questions");
  if (!questions.is_array()) {
    throw usage_error(
        files.gold.string() + ": expected a JSON list of questions" +
        (questions.is_object() ? " (an object is a predictions file: it goes with --pred)" : ""));
  }
  if (questions.empty()) throw usage_error(files.gold.string() + ": no question in the list (it is empty)");
  const nlohmann::json predictions = parse_json_file(files.pred, "predictions");
  if (!predictions.is_object()) {
    throw usage_error(files.pred.string() +
                      ": expected a JSON object {\"0\": \"SQL\\t----- bird -----\\tdb_id\", ...}" +
                      (predictions.is_array() ? " (a list is a questions file: it goes with --gold)" : ""));
  }
  std::map<std::size_t, std::string> sql_of;
  for (const auto& [key, value] : predictions.items()) {
    const std::size_t index = question_position(key, files.pred, questions.size());
    if (!value.is_string())
      throw usage_error(files.pred.string() + ": prediction \"" + key + "\" is not a string");
    if (index >= questions.size()) {
      spdlog::warn("{}: prediction \"{}\" has no question ({} questions); ignored", files.pred.string(), key,
                   questions.size());
      continue;
    }
    sql_of[index] = value.get<std::string>();
  }
  const std::string system = files.system ? *files.system : files.pred.stem().string();
  std::vector<example> out;
  std::size_t missing = 0;
  for (std::size_t i = 0; i < questions.size(); ++i) {
    const nlohmann::json& q = questions[i];
    const std::string at = files.gold.string() + " question " + std::to_string(i);
    const auto text = [&](const char* key, bool required) -> std::string {
      const auto it = q.find(key);
      if (it == q.end() || it->is_null()) {
        if (required) throw usage_error(at + ": missing field '" + key + "'");
        return {};
      }
      if (it->is_number_unsigned()) return std::to_string(it->get<std::uint64_t>());
      if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
      if (!it->is_string()) throw usage_error(at + ": field '" + key + "' must be a string");
      return it->get<std::string>();
    };
    if (!q.is_object()) throw usage_error(at + ": expected an object");
    example ex;
    ex.id = system + ":" + std::to_string(i);
    ex.item = std::to_string(i);
    ex.db_id = text("db_id", true);
    ex.db = database_file_in(files.db_root, ex.db_id, at).string();
    ex.gold = text("SQL", true);
    ex.question = text("question", false);
    ex.evidence = text("evidence", false);
    ex.difficulty = text("difficulty", false);
    ex.system = system;
    ex.origin = files.pred.string() + " key \"" + std::to_string(i) + "\"";
    if (const auto it = sql_of.find(i); it != sql_of.end()) {
      std::string sql = it->second;
      const std::size_t sep = sql.rfind(separator);
      if (sep != std::string::npos) {
        const std::string db_id = trim(std::string_view(sql).substr(sep + separator.size()));
        if (db_id != ex.db_id) {
          spdlog::warn("{}: the prediction names database '{}' but question {} is on '{}'", ex.origin, db_id,
                       i, ex.db_id);
        }
        sql.resize(sep);
      }
      ex.pred = std::move(sql);
    } else {
      ex.pred_missing = true;
      ++missing;
    }
    out.push_back(std::move(ex));
  }
  if (missing > 0) {
    spdlog::warn("{}: {} of {} questions have no prediction (status pred_missing)", files.pred.string(),
                 missing, questions.size());
  }
  return out;
}

}  // namespace sqlmorph::core
