#pragma once
// Token boundaries and string literals exactly as Python's sqlparse lexer finds them (its SQL_REGEX
// rules, tried in order at each position), for the official Spider evaluator's value plugging,
// whose result depends on where sqlparse cuts the text. Only what that needs is distinguished.
// Bytes >= 0x80 count as letters (sqlparse's \w and À-Ü on decoded text; exact for ASCII SQL).

#include <string_view>
#include <vector>

namespace sqlmorph::reference {

enum class sqlparse_kind {
  whitespace,     ///< one space, tab, form feed or vertical tab (sqlparse's `\s+?`)
  newline,        ///< \r\n, \r or \n
  string_single,  ///< '...' (Literal.String.Single)
  string_symbol,  ///< "..." (Literal.String.Symbol)
  other,          ///< every other token (names, keywords, numbers, operators, comments, ...)
};

struct sqlparse_token {
  sqlparse_kind kind;
  std::string_view text;
};

/// Tokenizes `sql`; concatenating the texts gives `sql` back.
std::vector<sqlparse_token> sqlparse_tokens(std::string_view sql);

}  // namespace sqlmorph::reference
