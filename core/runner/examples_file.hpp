#pragma once
// examples.jsonl of a run: one line per example and system (eval/example_evidence.hpp), appended a
// unit at a time with one write() each, before the unit's records go to results.jsonl. With
// resume, the leading units whose lines name the examples this run would write there (id and
// system, in order) are kept and the rest is cut; results.jsonl then resumes no further than
// examples.jsonl does (a unit whose evidence was lost is evaluated again).

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sqlmorph::core {

class examples_file {
 public:
  /// The examples (id, system) of unit `u`, in order.
  using expected_examples = std::function<std::vector<std::pair<std::string, std::string>>(std::size_t u)>;

  /// Opens `file`. With `resume`, finds the leading complete units (up to `units`); without,
  /// starts it empty.
  examples_file(std::filesystem::path file, bool resume, std::size_t units,
                const expected_examples& expected);
  ~examples_file();
  examples_file(const examples_file&) = delete;
  examples_file& operator=(const examples_file&) = delete;

  /// How many leading units are complete (resume).
  std::size_t complete_units() const noexcept { return units_; }
  /// Cuts the file after its first `units` units (at most complete_units()), where results.jsonl
  /// resumes.
  void keep_units(std::size_t units);
  /// Appends one unit's lines (without newlines) in a single write. Throws usage_error on failure.
  void append_unit(const std::vector<std::string>& lines);

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  std::size_t units_ = 0;
  std::vector<std::size_t> unit_ends_;  // byte offset after each complete unit
};

}  // namespace sqlmorph::core
