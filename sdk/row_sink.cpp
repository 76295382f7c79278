#include "sqlmorph/row_sink.hpp"

#include <limits>

namespace sqlmorph {

void row_sink::set_columns(std::vector<std::string> names, std::vector<std::string> types) {
  rows_.set_columns(std::move(names), std::move(types));
  has_columns_ = true;
}

bool row_sink::begin_row() {
  if (full()) return false;
  if (limits_.max_rows > 0 && rows_fetched_ == limits_.max_rows) {
    rows_.set_truncated(true);
    cap_message_ = "more than " + std::to_string(limits_.max_rows) + " rows (row cap)";
    return false;
  }
  return true;
}

bool row_sink::over_bytes_() {
  rows_.keep_rows(rows_fetched_);  // the row that went over goes, complete or not
  rows_.set_truncated(true);
  cap_message_ = "more than " + std::to_string(limits_.max_bytes) + " bytes of text (byte cap)";
  return false;
}

bool row_sink::count_bytes(std::uint64_t n) {
  bytes_ += n;
  if (limits_.max_bytes > 0 && bytes_ > limits_.max_bytes) return over_bytes_();
  return true;
}

bool row_sink::text(std::string_view bytes) {
  if (limits_.max_bytes > 0 && bytes_ + bytes.size() > limits_.max_bytes) return over_bytes_();
  bytes_ += bytes.size();
  rows_.append_text(bytes);
  return true;
}

bool row_sink::blob(std::string_view bytes) {
  if (limits_.max_bytes > 0 && bytes_ + bytes.size() > limits_.max_bytes) return over_bytes_();
  bytes_ += bytes.size();
  rows_.append_blob(bytes);
  return true;
}

void row_sink::restart() {
  rows_ = result{};
  has_columns_ = false;
  rows_fetched_ = 0;
  bytes_ = 0;
  cap_message_.clear();
}

std::uint64_t row_sink::bytes_left() const noexcept {
  if (limits_.max_bytes == 0) return std::numeric_limits<std::uint64_t>::max();
  return bytes_ >= limits_.max_bytes ? 0 : limits_.max_bytes - bytes_;
}

}  // namespace sqlmorph
