#pragma once
// Numeric options checked as they are parsed, with messages that give the bounds in words
// ("--timeout must be a number of seconds from 0 (no limit) to 604800, not -1"), never CLI11's own
// range text (its upper bound of a double is 300 digits long) and never a silent wrap: CLI11 reads
// "-1" into an unsigned option as 2^64-1, 2^64 as 2^64-1 too, and "010" as octal eight.

#include <cstdint>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace sqlmorph::core {

/// Checks `option`'s value, a decimal number (nothing after it), with `check(value, option name)`,
/// one of config/run_values.hpp's checks (the rules of sqlmorph.toml and the Python module), which
/// throws usage_error naming the option. A whole number is handed on to CLI11 as plain decimal
/// digits, so an integer option gets exactly the value checked.
CLI::Option* checked_by(CLI::Option* option, std::function<void(double, const std::string&)> check);

/// Checks that `option`'s value is a whole number from `min` to `max`, in decimal digits only (no
/// sign, no 0x): usage_error "--seed must be a whole number from 0 to 18446744073709551615, not -1"
/// otherwise.
CLI::Option* whole_number_from(CLI::Option* option, std::uint64_t min, std::uint64_t max);

}  // namespace sqlmorph::core
