#include "runner/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "eval/exact_match_metric.hpp"
#include "output/atomic_file.hpp"
#include "output/record_json.hpp"
#include "output/write_all.hpp"
#include "runner/content_hash.hpp"

namespace sqlmorph::core {
namespace {}  // namespace

std::vector<record_key> unit_record_keys(const work_unit& unit, const std::vector<example>& examples,
                                         const std::vector<std::shared_ptr<const technique>>& techniques,
                                         bool exact_match, const std::vector<configured_judge>& judges) {
  std::vector<record_key> keys;
  keys.reserve(unit.examples.size() * (techniques.size() + (exact_match ? 1 : 0) + judges.size()));
  for (const std::size_t i : unit.examples) {
    for (const auto& t : techniques)
      keys.push_back({examples[i].id, examples[i].system, t->name(), t->penalize_extra_pred_cols()});
    if (exact_match)
      keys.push_back({examples[i].id, examples[i].system, exact_match_technique, std::nullopt});
    for (const auto& j : judges)
      keys.push_back({examples[i].id, examples[i].system, j.technique(), std::nullopt});
  }
  return keys;
}

results_file::results_file(std::filesystem::path file, bool resume, std::size_t units,
                           const std::function<std::vector<record_key>(std::size_t unit)>& expected)
    : file_(std::move(file)) {
  std::error_code ec;
  const std::filesystem::path checks_path = checks_file(file_);
  if (resume && std::filesystem::exists(file_, ec)) {
    const std::string text = read_file(file_);
    const std::vector<unit_check> checks = read_unit_checks(file_);
    std::size_t pos = 0;        // where the next line starts
    std::size_t line = 1;       // its line number
    std::size_t committed = 0;  // end of the last complete unit
    std::vector<record> pending;
    for (std::size_t unit = 0; unit < units; ++unit) {
      const std::size_t unit_begin = pos;
      const std::size_t unit_line = line;
      const std::vector<record_key> keys = expected(unit);
      pending.clear();
      bool complete = true;
      for (const record_key& key : keys) {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) {  // a line cut short by the interruption
          complete = false;
          break;
        }
        record r;
        const auto j = nlohmann::json::parse(text.begin() + static_cast<long>(pos),
                                             text.begin() + static_cast<long>(end), nullptr, false);
        if (j.is_discarded() || !record_from_json(j, r) ||
            !(record_key{r.id, r.system, r.technique, r.penalize_extra_pred_cols} == key)) {
          complete = false;
          break;
        }
        pending.push_back(std::move(r));
        pos = end + 1;
        ++line;
      }
      if (!complete) break;
      // The unit's lines exactly as written: its checksum must match (an edited line, a line
      // from another run pasted in, are evaluated again rather than kept).
      const std::string_view bytes(text.data() + unit_begin, pos - unit_begin);
      if (unit >= checks.size()) {
        spdlog::warn("resume: {} line {}: no checksum for this unit in {}; evaluating it again",
                     file_.string(), unit_line, checks_path.string());
        break;
      }
      if (!checks[unit].matches(bytes)) {
        spdlog::warn(
            "resume: {} lines {}-{} differ from what this run wrote (edited, or written by a sqlmorph older "
            "than 2026-11-27, which cut runs into other units?); evaluating them and what follows again",
            file_.string(), unit_line, line - 1);
        break;
      }
      committed = pos;
      ++resumed_units_;
      resumed_.insert(resumed_.end(), std::make_move_iterator(pending.begin()),
                      std::make_move_iterator(pending.end()));
    }
    if (committed < text.size()) {
      spdlog::info("resume: keeping {} complete units of {}, discarding {} bytes after them", resumed_units_,
                   file_.string(), text.size() - committed);
      std::filesystem::resize_file(file_, committed, ec);
      if (ec) throw usage_error("cannot truncate " + file_.string() + ": " + ec.message());
    }
    // The checksums of the kept units, rewritten (a torn or extra tail dropped).
    std::string kept;
    for (std::size_t u = 0; u < resumed_units_; ++u)
      kept += std::to_string(checks[u].bytes) + "\t" + checks[u].hash + "\n";
    write_file_atomically(checks_path, kept);
  }
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (resume ? 0 : O_TRUNC);
  fd_ = ::open(file_.c_str(), flags, 0644);
  if (fd_ < 0) throw usage_error("cannot write " + file_.string() + ": " + std::strerror(errno));
  checks_fd_ = ::open(checks_path.c_str(), flags, 0644);
  if (checks_fd_ < 0) throw usage_error("cannot write " + checks_path.string() + ": " + std::strerror(errno));
}

results_file::~results_file() {
  if (fd_ >= 0) ::close(fd_);
  if (checks_fd_ >= 0) ::close(checks_fd_);
}

std::filesystem::path checks_file(const std::filesystem::path& results) {
  return std::filesystem::path(results.string() + ".check");
}

bool unit_check::matches(std::string_view unit_bytes) const {
  return bytes == unit_bytes.size() && hash == text_content_hash(unit_bytes);
}

std::vector<unit_check> read_unit_checks(const std::filesystem::path& results) {
  std::vector<unit_check> checks;
  const auto path = checks_file(results);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return checks;
  const std::string text = read_file(path);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos) break;  // a torn last line
    const std::string line = text.substr(at, end - at);
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) break;
    checks.push_back({std::strtoull(line.c_str(), nullptr, 10), line.substr(tab + 1)});
    at = end + 1;
  }
  return checks;
}

results_unit_text format_results_unit(const std::vector<record>& records) {
  results_unit_text unit;
  // Room for the unit's lines at once (growing them by doubling copies them again and again): as
  // many bytes per record as this thread's last unit had, and an eighth more, up to 32 MiB (a unit
  // of a few huge records must not make the next one reserve its size for each of its records).
  thread_local std::size_t bytes_per_record = 256;
  constexpr std::size_t most = std::size_t{32} << 20;
  unit.lines.reserve(records.size() < most / bytes_per_record ? records.size() * bytes_per_record : most);
  for (const record& r : records) {
    append_record_json(unit.lines, r, true);
    unit.lines += '\n';
  }
  if (!records.empty()) bytes_per_record = unit.lines.size() / records.size() * 9 / 8 + 1;
  unit.check = std::to_string(unit.lines.size()) + "\t" + text_content_hash(unit.lines) + "\n";
  return unit;
}

void results_file::append_unit(const results_unit_text& unit) {
  write_all(fd_, file_, unit.lines);
  // Its checksum after it: a unit whose checksum never made it to disk is evaluated again on resume.
  write_all(checks_fd_, checks_file(file_), unit.check);
}

}  // namespace sqlmorph::core
