#pragma once
// A compact binary form of a query outcome, for the on-disk cache of gold results.

#include <optional>
#include <string>
#include <string_view>

#include <sqlmorph/query.hpp>

namespace sqlmorph::core {

/// Appends the outcome's bytes to `out`.
void serialize_outcome(const query_outcome& o, std::string& out);

/// Reads an outcome back; nothing if the bytes are not a complete, well-formed outcome.
std::optional<query_outcome> deserialize_outcome(std::string_view bytes);

}  // namespace sqlmorph::core
