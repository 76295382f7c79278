// Spider's gold and prediction readers, plain lines and CSV: the input is read as each of them.

#include <cstddef>
#include <cstdint>

#include "datasets/csv.hpp"
#include "datasets/spider_files.hpp"
#include "errors.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const core::input_limits limits{4096, 1 << 20};
  // As predictions, in both readings of tabs, against db_ids taken from the input itself.
  std::vector<std::string> db_ids;
  for (std::size_t i = 0; i < text.size() && db_ids.size() < 8; i += 7)
    db_ids.emplace_back(text.substr(i, 3));
  for (const auto tabs : {core::prediction_tabs::official, core::prediction_tabs::keep}) {
    try {
      auto lines = core::line_reader::from_text(text, "pred.sql", limits);
      core::read_spider_predictions(lines, false, db_ids, tabs);
    } catch (const core::usage_error&) {
    }
  }
  try {
    auto lines = core::line_reader::from_text(text, "pred.csv", limits);
    core::read_spider_predictions(lines, true, db_ids, core::prediction_tabs::official);
  } catch (const core::usage_error&) {
  }
  try {
    for (const core::csv_row& row : core::parse_csv(text, "t.csv"))
      fuzz::require(row.line >= 1, "rows have lines");
  } catch (const core::usage_error&) {
  }
  // As a gold file (with a prediction file of the same text), through the file readers.
  try {
    const auto gold = fuzz::scratch_file("gold.sql", text);
    const auto examples = core::read_spider_files({gold, gold, fuzz::scratch_dir() / "db", "sys"});
    for (const auto& ex : examples) fuzz::require(!ex.db_id.empty(), "every example has a database");
  } catch (const core::usage_error&) {
  }
  return 0;
}
