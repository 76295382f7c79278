#pragma once
// Records as JSON objects, with the field order of the documented output format.

#include <nlohmann/json.hpp>

#include "eval/record.hpp"

namespace sqlmorph::core {

/// {"technique", "penalize_extra_pred_cols", "status", "EX", "EXP", "EXR", "F1", "error", "gold_ms",
/// "pred_ms", "technique_ms", ...extra fields}; with `with_example` the object starts with "id", "db_id",
/// "system", "difficulty". Appended to `out` as compact JSON text (no line break): the fast path of
/// results.jsonl.
void append_record_json(std::string& out, const record& r, bool with_example);
/// The same record as a JSON document (for output that embeds records in a larger document).
nlohmann::ordered_json record_to_json(const record& r, bool with_example);

/// The "id" of a line of results.jsonl or examples.jsonl as text (an integer id as its digits);
/// empty when there is none. `is_number` tells whether it was a JSON integer.
std::string json_id(const nlohmann::json& line, bool* is_number = nullptr);

/// The string member `key` of a JSON object (a line of results.jsonl or examples.jsonl); empty when
/// it is missing, null or not a string.
std::string json_text(const nlohmann::json& line, const char* key);

/// Reads back a line of results.jsonl; false if it is not one.
bool record_from_json(const nlohmann::json& j, record& out);

/// Text with invalid UTF-8 replaced (JSON output must be valid UTF-8).
std::string dump_json(const nlohmann::ordered_json& j, int indent = -1);

}  // namespace sqlmorph::core
