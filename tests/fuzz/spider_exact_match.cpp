// Spider's exact set match (sqlmorph/spider_exact_match.hpp): a gold and a predicted SQL (the input
// split at its first newline) scored against a small fixed schema with foreign keys. Any input is
// scored or its gold refused (gold_error) — never an exception or a sanitizer report; partial scores
// are 0/1 with non-negative totals; EM implies every f1 is 1; and a gold query that parses matches
// itself (unless the official reader's `value` replacement or a NaN makes the two sides differ).

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>

#include <sqlmorph/spider_exact_match.hpp>

#include "fuzz_support.hpp"

namespace sp = sqlmorph::spider;

namespace {

const sp::database_schema& schema() {
  static const sp::database_schema db = [] {
    sp::tables_entry e;
    e.db_id = "concert_singer";
    e.table_names_original = {"stadium", "singer", "concert", "singer_in_concert"};
    e.column_names_original = {{-1, "*"},         {0, "Stadium_ID"}, {0, "Name"}, {0, "Capacity"},
                               {1, "Singer_ID"},  {1, "Name"},       {1, "Age"},  {1, "Country"},
                               {2, "concert_ID"}, {2, "Stadium_ID"}, {2, "Year"}, {3, "concert_ID"},
                               {3, "Singer_ID"}};
    e.foreign_keys = {{9, 1}, {12, 4}, {11, 8}};
    return sp::make_database_schema(e);
  }();
  return db;
}

void check_scores(const sp::exact_match_scores& s) {
  for (const sp::partial_score& p : s.partial) {
    sqlmorph::fuzz::require(p.acc >= 0 && p.acc <= 1 && p.rec >= 0 && p.rec <= 1 && p.f1 >= 0 && p.f1 <= 1,
                            "partial acc/rec/f1 are 0 or 1");
    sqlmorph::fuzz::require(p.label_total >= 0 && p.pred_total >= 0, "partial totals are counts");
    if (s.exact) sqlmorph::fuzz::require(p.f1 == 1, "an exact match has every partial f1 at 1");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = input.find('\n');
  const std::string_view gold = input.substr(0, cut);
  const std::string_view pred = cut == std::string_view::npos ? std::string_view() : input.substr(cut + 1);
  const sp::exact_match_outcome o = sp::score_exact_match(gold, pred, schema());
  if (!o.gold_error.empty()) return 0;
  check_scores(o.scores);
  const sp::exact_match_outcome self = sp::score_exact_match(gold, gold, schema());
  sqlmorph::fuzz::require(self.gold_error.empty(), "a gold query scores the same way twice");
  check_scores(self.scores);
  std::string lower(gold);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const bool comparable =
      gold.find("value") == std::string_view::npos && lower.find("nan") == std::string::npos;
  if (comparable && self.pred_parsed) sqlmorph::fuzz::require(self.scores.exact, "a query matches itself");
  return 0;
}
