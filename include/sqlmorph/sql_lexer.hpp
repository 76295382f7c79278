#pragma once
/// \file sql_lexer.hpp
/// A small, dialect-tolerant SQL tokenizer.
///
/// It splits SQL text into tokens the way Python's `sqlparse` does for the purposes that matter to
/// evaluation: words (keywords and names), quoted strings and names, comments, numbers, punctuation
/// and operators. It never fails: unknown bytes become `other` tokens, unterminated strings or
/// comments run to the end. Bytes >= 0x80 count as word characters (as Unicode letters do in
/// Python's `\w`). Concatenating the token texts gives back the input exactly.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph {

enum class sql_token_kind {
  whitespace,     ///< spaces and tabs
  newline,        ///< \n, \r\n or \r
  comment,        ///< -- ..., # ..., /* ... */
  string,         ///< '...' literal
  quoted_name,    ///< "...", `...`, [...]
  dollar_string,  ///< $tag$ ... $tag$
  word,           ///< keyword or bare name: [0-9_A-Za-z\x80-\xff][_$#0-9A-Za-z\x80-\xff]*
  number,         ///< 12, 1.5, .5, 1e3, 0x1F
  placeholder,    ///< ?, :name, $name, %s, %(name)s
  punctuation,    ///< ; : ( ) [ ] , .
  op,             ///< runs of comparison or arithmetic operator characters, and *
  other,          ///< anything else (one byte)
};

struct sql_token {
  sql_token_kind kind;
  std::string_view text;
  std::size_t offset;
};

/// Tokenizes `sql`. Views point into `sql`.
std::vector<sql_token> lex_sql(std::string_view sql);

/// ASCII case-insensitive equality (SQL keywords).
bool iequals_ascii(std::string_view a, std::string_view b) noexcept;

/// True for tokens that carry no meaning (whitespace, newlines, comments).
bool is_trivia(const sql_token& t) noexcept;

/// True when the SQL has an ORDER BY clause at parenthesis depth 0 — i.e. it orders the final
/// result, not a subquery — detected from tokens (so `"ORDER\nBY"` counts, `'order by'` does not).
bool has_top_level_order_by(std::string_view sql);

/// The text of the first statement: everything up to and including the first `;` at parenthesis
/// depth 0 (as `sqlparse.parse(sql)[0]` keeps it), or the whole text when there is none.
std::string_view first_statement(std::string_view sql);

/// `name` as a double-quoted SQL name, a `"` inside doubled (`a"b` → `"a""b"`): the standard form,
/// which SQLite, PostgreSQL and DuckDB read back as `name` whatever it holds.
std::string quote_sql_name(std::string_view name);
/// `text` as a standard SQL string literal, a `'` inside doubled (`it's` → `'it''s'`), as SQLite,
/// PostgreSQL and DuckDB read it (not MySQL, where a backslash escapes).
std::string quote_sql_string(std::string_view text);

}  // namespace sqlmorph
