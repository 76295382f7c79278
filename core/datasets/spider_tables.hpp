#pragma once
// Spider's tables.json (the `--table` file of the official evaluator): per database, the schema that
// process_sql resolves names against and the foreign-key map of exact set match.

#include <filesystem>
#include <map>
#include <string>

#include <sqlmorph/spider_exact_match.hpp>

namespace sqlmorph::core {

using spider_schemas = std::map<std::string, spider::database_schema, std::less<>>;

/// Every entry of `file`, by db_id. Throws input_error naming the file (and the entry) when it is
/// not a tables.json: unreadable, not JSON, a missing or mistyped field, an index out of range, or a
/// db_id given twice.
spider_schemas read_spider_tables(const std::filesystem::path& file);

/// The same from the file's text; `name` names it in messages.
spider_schemas parse_spider_tables(const std::string& text, const std::string& name);

}  // namespace sqlmorph::core
