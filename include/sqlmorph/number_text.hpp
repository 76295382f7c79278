#pragma once
// Numbers written as text, as database servers send them (the text protocols of PostgreSQL and
// MySQL, ODBC drivers' character data): exact integers, the nearest double, and decimals that are
// integral kept exact. One definition for every backend plugin.

#include <cstdint>
#include <optional>
#include <string_view>

namespace sqlmorph {

/// The whole of `s` as a decimal int64 (`-12`; no '+', no blanks). False when it is not one or is
/// beyond int64.
bool parse_int64(std::string_view s, std::int64_t& out) noexcept;

/// The whole of `s` as the nearest double: decimal or scientific notation, `inf`, `infinity` and
/// `nan` in any case, with an optional '-'. A number beyond double's range is its nearest double
/// (±infinity, or ±0 and subnormals for tiny ones), as PostgreSQL's numeric of up to 131,072 digits
/// may be. nullopt when `s` is not a number.
std::optional<double> parse_double(std::string_view s);

/// A decimal numeral ([-+]digits[.digits][e[-+]digits]) that is integral and within int64, decided
/// on the digits themselves (`12.000` and `1.5e3` are integral; `1e19` is not within int64).
bool parse_integral_decimal(std::string_view s, std::int64_t& out);

}  // namespace sqlmorph
