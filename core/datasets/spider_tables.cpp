#include "datasets/spider_tables.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "datasets/text_lines.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

namespace {

spider::tables_entry entry_of(const nlohmann::json& j) {
  spider::tables_entry e;
  e.db_id = j.at("db_id").get<std::string>();
  e.table_names_original = j.at("table_names_original").get<std::vector<std::string>>();
  for (const nlohmann::json& c : j.at("column_names_original")) {
    if (!c.is_array() || c.size() != 2)
      throw std::invalid_argument("column_names_original: [table index, name] expected");
    e.column_names_original.emplace_back(c.at(0).get<int>(), c.at(1).get<std::string>());
  }
  for (const nlohmann::json& k : j.at("foreign_keys")) {
    if (!k.is_array() || k.size() != 2)
      throw std::invalid_argument("foreign_keys: [column, column] expected");
    e.foreign_keys.emplace_back(k.at(0).get<int>(), k.at(1).get<int>());
  }
  return e;
}

}  // namespace

spider_schemas parse_spider_tables(const std::string& text, const std::string& name) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw input_error(name + ": not JSON: " + e.what());
  }
  if (!j.is_array()) throw input_error(name + ": a tables.json holds a list of databases");
  spider_schemas out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    std::string where = name + ": entry " + std::to_string(i);
    if (j[i].is_object() && j[i].contains("db_id") && j[i]["db_id"].is_string())
      where += " (" + j[i]["db_id"].get<std::string>() + ")";
    try {
      if (!j[i].is_object()) throw std::invalid_argument("an object expected");
      const spider::tables_entry e = entry_of(j[i]);
      spider::database_schema db = spider::make_database_schema(e);
      if (!out.emplace(e.db_id, std::move(db)).second) throw std::invalid_argument("db_id given twice");
    } catch (const nlohmann::json::exception& ex) {
      throw input_error(where + ": " + ex.what());
    } catch (const std::invalid_argument& ex) {
      throw input_error(where + ": " + ex.what());
    }
  }
  return out;
}

spider_schemas read_spider_tables(const std::filesystem::path& file) {
  return parse_spider_tables(read_file(file), file.string());
}

}  // namespace sqlmorph::core
