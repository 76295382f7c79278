#pragma once
// A compact binary form of a query outcome, for the on-disk cache of gold results.

#include <optional>
#include <string>
#include <string_view>

#include <sqlmorph/query.hpp>

namespace sqlmorph::core {

/// Appends one cell's bytes to `out`: its kind, then the 8 bytes of a number (a real's bits) or the
/// length and bytes of a text or blob.
void serialize_cell(const value& v, std::string& out);

/// Appends the outcome's bytes to `out`.
void serialize_outcome(const query_outcome& o, std::string& out);

/// Reads an outcome back; nothing if the bytes are not a complete, well-formed outcome.
std::optional<query_outcome> deserialize_outcome(std::string_view bytes);

}  // namespace sqlmorph::core
