#include "spider_rewriters.hpp"

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::reference {
namespace {

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

// Python's \s for the ASCII range.
bool is_python_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Matches `word` case-insensitively at `pos`, returning the position after it or npos.
std::size_t match_word(std::string_view s, std::size_t pos, std::string_view word) {
  if (pos + word.size() > s.size() || !iequals_ascii(s.substr(pos, word.size()), word))
    return std::string_view::npos;
  return pos + word.size();
}

std::size_t skip_spaces(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_python_space(s[pos])) ++pos;
  return pos;
}

std::size_t match_char(std::string_view s, std::size_t pos, char c) {
  return pos < s.size() && s[pos] == c ? pos + 1 : std::string_view::npos;
}

}  // namespace

rewrite_outcome spider_fix_spaced_operators::do_rewrite_(std::string_view sql, query_role) const {
  std::string out(sql);
  out = replace_all(std::move(out), "> =", ">=");
  out = replace_all(std::move(out), "< =", "<=");
  out = replace_all(std::move(out), "! =", "!=");
  return rewrite_outcome::success(std::move(out));
}

rewrite_outcome spider_remove_distinct::do_rewrite_(std::string_view sql, query_role) const {
  if (keep_distinct_) return rewrite_outcome::success(std::string(sql));
  bool blank = true;
  for (char c : sql) blank = blank && is_python_space(c);
  if (blank) return rewrite_outcome::failure("no SQL statement to parse");
  std::string out;
  out.reserve(sql.size());
  for (const sql_token& t : lex_sql(first_statement(sql))) {
    if (t.kind == sql_token_kind::word && iequals_ascii(t.text, "distinct")) continue;
    out += t.text;
  }
  return rewrite_outcome::success(std::move(out));
}

rewrite_outcome spider_curdate_year::do_rewrite_(std::string_view sql, query_role) const {
  // re.sub(r"YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*", "2020", query, flags=re.IGNORECASE)
  std::string out;
  std::size_t copied = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    std::size_t p = match_word(sql, i, "year");
    if (p == std::string_view::npos) continue;
    p = match_char(sql, skip_spaces(sql, p), '(');
    if (p != std::string_view::npos) p = match_word(sql, skip_spaces(sql, p), "curdate");
    if (p != std::string_view::npos) p = match_char(sql, skip_spaces(sql, p), '(');
    if (p != std::string_view::npos) p = match_char(sql, skip_spaces(sql, p), ')');
    if (p != std::string_view::npos) p = match_char(sql, skip_spaces(sql, p), ')');
    if (p == std::string_view::npos) continue;
    p = skip_spaces(sql, p);
    out.append(sql.substr(copied, i - copied));
    out += "2020";
    copied = p;
    i = p - 1;
  }
  out.append(sql.substr(copied));
  return rewrite_outcome::success(std::move(out));
}

}  // namespace sqlmorph::reference
