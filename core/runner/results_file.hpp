#pragma once
// results.jsonl of a run: one line per example × technique variant, appended a unit at a time with
// one write() each — what was written survives the process being killed — followed by the unit's
// checksum in results.jsonl.check. With resume, the complete units already there are kept when
// every line is the record this run would write there (example, system, technique, variant) and
// the unit's bytes match their checksum (so an edited line is noticed); the run continues after
// them and an incomplete, edited or unchecked tail is evaluated again.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/example.hpp"
#include "eval/record.hpp"
#include "judges/judge_set.hpp"
#include "runner/work_plan.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

/// What identifies one line: the example (id and system), the technique and its variant.
struct record_key {
  std::string id;
  std::string system;
  std::string technique;
  std::optional<bool> penalize;
  bool operator==(const record_key&) const = default;
};

/// The lines one unit writes, in order: per example, one per technique variant, then the
/// spider_exact_match line when `exact_match`, then one per judge.
std::vector<record_key> unit_record_keys(const work_unit& unit, const std::vector<example>& examples,
                                         const std::vector<std::shared_ptr<const technique>>& techniques,
                                         bool exact_match, const std::vector<configured_judge>& judges);

/// results.jsonl.check beside results.jsonl: one line per written unit, "<bytes>\t<XXH3-128>" of its
/// lines, appended after them; --resume keeps a unit only when its lines match it.
std::filesystem::path checks_file(const std::filesystem::path& results);

/// One line of results.jsonl.check.
struct unit_check {
  std::uint64_t bytes = 0;
  std::string hash;
  /// Whether a unit's lines (their bytes, line breaks included) are the ones checksummed.
  bool matches(std::string_view unit_bytes) const;
};
/// The checksums beside `results` (none if the file is absent; a torn last line is dropped).
std::vector<unit_check> read_unit_checks(const std::filesystem::path& results);

/// One unit's lines of results.jsonl and its line of results.jsonl.check, formatted on the worker
/// that evaluated the unit (the writer only writes them).
struct results_unit_text {
  std::string lines;
  std::string check;
};
results_unit_text format_results_unit(const std::vector<record>& records);

class results_file {
 public:
  /// Opens `file`. With `resume`, keeps the leading units whose lines match `expected(unit)` for
  /// unit = 0, 1, ... (up to `units`), and cuts the file after them. Without, starts it empty.
  results_file(std::filesystem::path file, bool resume, std::size_t units,
               const std::function<std::vector<record_key>(std::size_t unit)>& expected);
  ~results_file();
  results_file(const results_file&) = delete;
  results_file& operator=(const results_file&) = delete;

  /// How many leading units were found complete (resume).
  std::size_t resumed_units() const noexcept { return resumed_units_; }
  /// Their records, in file order.
  const std::vector<record>& resumed_records() const noexcept { return resumed_; }

  /// Appends one unit's lines (a single write), then its checksum. Throws usage_error if a write
  /// fails.
  void append_unit(const results_unit_text& unit);

  const std::filesystem::path& path() const noexcept { return file_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  int checks_fd_ = -1;
  std::size_t resumed_units_ = 0;
  std::vector<record> resumed_;
};

}  // namespace sqlmorph::core
