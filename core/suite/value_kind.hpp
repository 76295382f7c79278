#pragma once
// What kind of values a column holds, from its declared type (and, when that says nothing, the
// values it already has): the fuzzer generates values of that kind, and a neighbour query only
// swaps a column for one of a compatible kind.

#include <string_view>
#include <vector>

#include "suite/sqlite_database.hpp"

namespace sqlmorph::core::suite {

enum class value_kind { integer, real, text, date, time, boolean, blob };

/// The kind of a column declared `declared_type` named `column` whose sampled values are `samples`
/// (used when the declared type is empty or unknown, and to tell a date stored as text).
value_kind column_value_kind(std::string_view declared_type, std::string_view column,
                             const std::vector<sql_value>& samples);

/// "integer", "real", ...
std::string_view value_kind_name(value_kind k) noexcept;

/// Numbers (integer, real, boolean) are compatible with each other; so are text, date and time.
bool compatible_kinds(value_kind a, value_kind b) noexcept;

}  // namespace sqlmorph::core::suite
