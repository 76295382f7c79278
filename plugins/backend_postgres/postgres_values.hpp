#pragma once
// PostgreSQL's text output format to sqlmorph values, by column type OID (the table is in README.md).

#include <cstddef>
#include <string>
#include <string_view>

#include <libpq-fe.h>

#include <sqlmorph/result.hpp>

namespace sqlmorph::postgres {

/// PostgreSQL's name of a built-in type ("int4", "varchar", "timestamptz", ...), or "" for a type
/// outside the small table this backend knows (arrays, domains, extensions, user types).
std::string_view type_name(Oid type) noexcept;

/// Appends one non-NULL cell given in PostgreSQL's text format as the value kind its type maps to.
/// `scratch` is reused for decoding bytea. Returns the payload bytes added (text and blob bytes;
/// 0 for numbers), which is what the byte cap counts.
std::size_t append_text_cell(result& out, Oid type, std::string_view text, std::string& scratch);

}  // namespace sqlmorph::postgres
