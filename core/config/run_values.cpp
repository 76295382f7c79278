#include "config/run_values.hpp"

#include <cmath>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {

std::string shown(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A whole number of rows; `zero` says what 0 means.
std::uint64_t checked_rows(double value, const std::string& what, const char* zero) {
  // 2^63: beyond it a double no longer converts to std::uint64_t safely.
  if (!std::isfinite(value) || value < 0 || value != std::floor(value) || value >= 9.2e18) {
    throw usage_error(what + " must be a whole number of rows (0: " + zero + "), not " + shown(value));
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace

unsigned checked_jobs(double value, const std::string& what) {
  if (!std::isfinite(value) || value < 0 || value != std::floor(value) || value > max_jobs) {
    throw usage_error(what + " must be a whole number of workers from 0 (one per hardware thread) to " +
                      std::to_string(max_jobs) + ", not " + shown(value));
  }
  return static_cast<unsigned>(value);
}

double checked_timeout(double seconds, const std::string& what) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > max_timeout_seconds) {
    throw usage_error(what + " must be a number of seconds from 0 (no limit) to " +
                      shown(max_timeout_seconds) + ", not " + shown(seconds));
  }
  return seconds;
}

std::uint64_t checked_row_cap(double value, const std::string& what) {
  return checked_rows(value, what, "no row cap");
}

std::uint64_t checked_rows_kept(double value, const std::string& what) {
  return checked_rows(value, what, "none");
}

}  // namespace sqlmorph::core
