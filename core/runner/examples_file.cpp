#include "runner/examples_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "output/record_json.hpp"
#include "output/write_all.hpp"

namespace sqlmorph::core {

examples_file::examples_file(std::filesystem::path file, bool resume, std::size_t units,
                             const expected_examples& expected)
    : file_(std::move(file)) {
  std::error_code ec;
  if (resume && std::filesystem::exists(file_, ec)) {
    const std::string text = read_file(file_);
    std::size_t pos = 0;
    for (std::size_t u = 0; u < units; ++u) {
      bool complete = true;
      std::size_t at = pos;
      for (const auto& [id, system] : expected(u)) {
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) {
          complete = false;
          break;
        }
        const auto j = nlohmann::json::parse(text.begin() + static_cast<long>(at),
                                             text.begin() + static_cast<long>(end), nullptr, false);
        const bool same =
            !j.is_discarded() && j.is_object() && json_id(j) == id && json_text(j, "system") == system;
        if (!same) {
          complete = false;
          break;
        }
        at = end + 1;
      }
      if (!complete) break;
      pos = at;
      unit_ends_.push_back(pos);
    }
    units_ = unit_ends_.size();
  }
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (resume ? 0 : O_TRUNC);
  fd_ = ::open(file_.c_str(), flags, 0644);
  if (fd_ < 0) throw usage_error("cannot write " + file_.string() + ": " + std::strerror(errno));
  if (resume) keep_units(units_);
}

examples_file::~examples_file() {
  if (fd_ >= 0) ::close(fd_);
}

void examples_file::keep_units(std::size_t units) {
  units = std::min(units, units_);
  const std::size_t end = units == 0 ? 0 : unit_ends_[units - 1];
  std::error_code ec;
  const auto size = std::filesystem::file_size(file_, ec);
  if (!ec && size > end) {
    spdlog::info("resume: keeping {} complete units of {}, discarding {} bytes after them", units,
                 file_.string(), size - end);
    std::filesystem::resize_file(file_, end, ec);
    if (ec) throw usage_error("cannot truncate " + file_.string() + ": " + ec.message());
  }
  units_ = units;
  unit_ends_.resize(units);
}

void examples_file::append_unit(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) {
    text += line;
    text += '\n';
  }
  write_all(fd_, file_, text);
}

}  // namespace sqlmorph::core
