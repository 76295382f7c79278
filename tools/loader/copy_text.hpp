#pragma once
// Values in PostgreSQL's COPY text format (tab-separated, backslash escapes, \N for NULL).

#include <cstddef>
#include <string>
#include <string_view>

namespace sqlmorph::load {

/// What had to be changed in text PostgreSQL cannot store.
struct text_repairs {
  std::size_t invalid_utf8 = 0;  ///< values whose invalid UTF-8 sequences became U+FFFD
  std::size_t nul_bytes = 0;     ///< values whose NUL bytes were dropped
};

/// `s` as valid UTF-8 without NUL bytes (PostgreSQL text holds neither); counts what it changed.
std::string storable_text(std::string_view s, text_repairs& repairs);

/// Appends a text field, escaped for COPY text format.
void append_copy_text(std::string& line, std::string_view s);
/// Appends a bytea field (hex form, escaped for COPY text format).
void append_copy_bytea(std::string& line, std::string_view bytes);
/// Appends a double so that it reads back exactly ("Infinity" and "-Infinity" included).
void append_copy_double(std::string& line, double d);

}  // namespace sqlmorph::load
