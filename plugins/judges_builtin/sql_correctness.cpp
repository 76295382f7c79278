#include "sql_correctness.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include <sqlmorph/backend.hpp>

namespace sqlmorph::judges {
namespace {

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

bool blank(std::string_view sql) {
  return std::all_of(sql.begin(), sql.end(), [](unsigned char c) { return std::isspace(c) || c == ';'; });
}

}  // namespace

std::string_view problem_kind(std::string_view m) {
  // SQLite ("no such table: x"), PostgreSQL ('relation "x" does not exist'), and the refusals of
  // the backends' read-only checks.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 20> rules{{
      {"no such table", "unknown_table"},
      {"relation \"", "unknown_table"},
      {"no such column", "unknown_column"},
      {"column \"", "unknown_column"},
      {"no such function", "unknown_function"},
      {"function ", "unknown_function"},
      {"ambiguous column", "ambiguous_column"},
      {"is ambiguous", "ambiguous_column"},
      {"syntax error", "syntax_error"},
      {"incomplete input", "syntax_error"},
      {"unrecognized token", "syntax_error"},  // e.g. a markdown fence left in the prediction
      {"misuse of aggregate", "misuse"},       // an aggregate where SQLite forbids one
      {"misused", "misuse"},
      {"operator does not exist", "type_error"},
      {"more than one statement", "refused"},
      {"read-only", "refused"},
      {"not a query", "refused"},
      {"only a query may be executed", "refused"},
      {"no statement", "empty"},
      {"holds no statement", "empty"},
  }};
  for (const auto& [needle, kind] : rules) {
    if (!contains(m, needle)) continue;
    // PostgreSQL words unknown functions and columns alike: "... does not exist".
    if ((needle == "relation \"" || needle == "column \"" || needle == "function ") &&
        !contains(m, "does not exist")) {
      continue;
    }
    return kind;
  }
  return "other";
}

sql_correctness::sql_correctness(const option_values& options)
    : timeout_seconds_(options.get_double("timeout")) {}

judge_verdict sql_correctness::do_evaluate_(const judge_request& request) const {
  judge_verdict v;
  const auto decided = [&](int label, std::string rationale, std::string_view kind) {
    v.label = label;
    v.confidence = 100.0;  // the engine's answer, not an estimate
    v.votes = {label};
    v.rationales = {std::move(rationale)};
    v.extra.emplace_back("problem", std::string(kind));
    return v;
  };
  if (blank(request.sql)) return decided(0, "the SQL is empty", "empty");
  if (request.target == nullptr) {
    v.ok = false;
    v.error = "sql_correctness needs a connection to the example's database (none was given)";
    return v;
  }
  exec_limits limits;
  limits.timeout_seconds = timeout_seconds_;
  const query_outcome checked = request.target->check(request.sql, limits);
  v.extra.emplace_back("check_ms", checked.elapsed_ms);
  switch (checked.status) {
    case query_status::ok:
      return decided(1, "parses and binds against the schema", "none");
    case query_status::error:
      return decided(0, checked.message, problem_kind(checked.message));
    case query_status::timeout:
    case query_status::db_missing:
    case query_status::backend_error:
      break;
  }
  v.ok = false;
  v.error = std::string("could not check the SQL (") + std::string(query_status_name(checked.status)) +
            "): " + checked.message;
  return v;
}

}  // namespace sqlmorph::judges
