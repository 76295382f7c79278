#pragma once
// `sqlmorph export`: a finished run's records, examples or summary as CSV (RFC 4180) or flat JSON Lines, for
// pandas, R and spreadsheets. One row per record (or per summary group), one header, a stable
// column order: the fixed columns first, then every other field, nested ones flattened to dotted
// names (`partial.select.acc`), in name order.
//
// A spreadsheet takes a CSV cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return for
// a formula (CSV injection: a case id, a SQL text or an error message could run one). With the
// formula guard (on by default) such a cell is written with a `'` in front, as OWASP advises, so it
// is read as text; a cell that is a number — a JSON number, or text that is a plain decimal number
// such as `-1.5` or `+2e3` — is left alone (no formula can hide in one). JSON Lines are never changed.

#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

namespace sqlmorph::core {

enum class export_format { csv, jsonl };
enum class export_what { records, examples, summary };

/// "csv"/"jsonl", "records"/"examples"/"summary"; false for anything else.
bool parse_export_format(std::string_view name, export_format& out);
bool parse_export_what(std::string_view name, export_what& out);

/// Writes `run_dir`'s results.jsonl (records), examples.jsonl (examples: nested fields flattened,
/// `features.gold.joins`, `gold_result.row_count`; lists such as `gold_result.rows` as their JSON
/// text in CSV) or summary.json (summary: one row per group of `techniques`, `by_difficulty`,
/// `by_database` and `by_feature`, with a `level` column; intervals as
/// `interval.EX.low`/`interval.EX.high`) to `out`. Throws usage_error naming the file (and line)
/// that is missing or malformed.
void export_run(const std::filesystem::path& run_dir, export_what what, export_format format,
                std::ostream& out, bool formula_guard);

/// Throws usage_error when `output` is (or resolves to, through links) one of the files a run keeps
/// in `run_dir` (results.jsonl, its .check, examples.jsonl, summary.json, run.json, run.lock): an
/// export never writes over the run it reads.
void refuse_run_file(const std::filesystem::path& run_dir, const std::filesystem::path& output);

/// `field` as a spreadsheet should read it: with a `'` in front when it would be taken for a
/// formula (see above), as it is otherwise.
std::string formula_guarded(std::string_view field);

/// `field` as one RFC 4180 field: quoted when it holds a comma, a quote, CR or LF (quotes doubled).
std::string csv_field(std::string_view field);

}  // namespace sqlmorph::core
