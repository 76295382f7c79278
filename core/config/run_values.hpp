#pragma once
// The checks every way of setting a run's numbers goes through — the command line, sqlmorph.toml,
// Lua's sqlmorph.evaluate{...} and the Python module — so `-j 100000`, `jobs = 2^63-1`,
// `timeout = nan` or `inf` are refused the same way everywhere (exit 2, naming where).

#include <cstdint>
#include <string>

namespace sqlmorph::core {

/// The most workers a run starts (more only adds threads waiting on the same 2..64 cores).
inline constexpr unsigned max_jobs = 256;
/// The longest time limit in seconds (a week); 0 means no limit.
inline constexpr double max_timeout_seconds = 7 * 24 * 3600;

/// A worker count: an integer from 0 (one per hardware thread) to max_jobs. `what` names the value
/// ("--jobs", "sqlmorph.toml:12: 'jobs'"); throws usage_error otherwise.
unsigned checked_jobs(double value, const std::string& what);

/// A time limit: a finite number of seconds from 0 (no limit) to max_timeout_seconds.
double checked_timeout(double seconds, const std::string& what);

/// A row cap: an integer >= 0 (0: no row cap; the byte cap still holds).
std::uint64_t checked_row_cap(double value, const std::string& what);

/// Rows of a result kept or shown (--keep-rows, --show-rows): an integer >= 0 (0: none).
std::uint64_t checked_rows_kept(double value, const std::string& what);

}  // namespace sqlmorph::core
