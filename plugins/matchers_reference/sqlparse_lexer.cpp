#include "sqlparse_lexer.hpp"

#include <cstddef>
#include <optional>
#include <string>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::reference {
namespace {

using pos_t = std::size_t;
constexpr pos_t no_match = std::string_view::npos;

bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
// [A-ZÀ-Ü] under IGNORECASE.
bool is_letter(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}
// \w
bool is_word(unsigned char c) {
  return is_letter(c) || is_digit(c) || c == '_';
}
// \s (ASCII)
bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_hex(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class lexer {
 public:
  explicit lexer(std::string_view s) : s_(s) {}

  std::vector<sqlparse_token> run() {
    std::vector<sqlparse_token> out;
    pos_t pos = 0;
    while (pos < s_.size()) {
      sqlparse_kind kind = sqlparse_kind::other;
      const pos_t end = next(pos, kind);
      out.push_back({kind, s_.substr(pos, end - pos)});
      pos = end;
    }
    return out;
  }

 private:
  unsigned char at(pos_t i) const { return i < s_.size() ? static_cast<unsigned char>(s_[i]) : 0; }
  bool has(pos_t i) const { return i < s_.size(); }

  // Case-insensitive literal at i; returns the position after it.
  pos_t literal(pos_t i, std::string_view word) const {
    if (i + word.size() > s_.size() || !iequals_ascii(s_.substr(i, word.size()), word)) return no_match;
    return i + word.size();
  }
  // \b at i (between a word and a non-word character, or at either end next to a word character).
  bool boundary(pos_t i) const {
    const bool before = i > 0 && is_word(at(i - 1));
    const bool after = has(i) && is_word(at(i));
    return before != after;
  }
  pos_t spaces1(pos_t i) const {  // \s+
    if (!has(i) || !is_space(at(i))) return no_match;
    while (has(i) && is_space(at(i))) ++i;
    return i;
  }
  pos_t word_run(pos_t i) const {  // \w*
    while (has(i) && is_word(at(i))) ++i;
    return i;
  }

  // `q(qq|\\q|[^q])*q` (without the `\\q` alternative unless `backslash`) with Python's
  // backtracking: the end of the match, or no_match. The star's continuation depends only on the
  // position, so it is computed once per position, from the end.
  pos_t quoted(pos_t start, char q, bool backslash = true) const {
    const std::size_t n = s_.size();
    std::vector<pos_t> end(n + 2, no_match);
    for (pos_t i = n; i-- > start + 1;) {
      pos_t r = no_match;
      if (at(i) == static_cast<unsigned char>(q) && at(i + 1) == static_cast<unsigned char>(q))
        r = end[i + 2];
      if (r == no_match && backslash && at(i) == '\\' && at(i + 1) == static_cast<unsigned char>(q))
        r = end[i + 2];
      if (r == no_match && at(i) != static_cast<unsigned char>(q)) r = end[i + 1];
      if (r == no_match && at(i) == static_cast<unsigned char>(q)) r = i + 1;
      end[i] = r;
    }
    return start + 1 <= n ? end[start + 1] : no_match;
  }

  // (--|# ).*?(\r\n|\r|\n|$)
  pos_t line_comment(pos_t i) const {
    if (!(literal(i, "--") != no_match || literal(i, "# ") != no_match)) return no_match;
    i += 2;
    while (has(i) && at(i) != '\n' && at(i) != '\r') ++i;
    if (literal(i, "\r\n") != no_match) return i + 2;
    return has(i) ? i + 1 : i;
  }

  // -?\d+(\.\d+)?E-?\d+
  pos_t float_exponent(pos_t i) const {
    if (at(i) == '-') ++i;
    if (!is_digit(at(i))) return no_match;
    while (is_digit(at(i))) ++i;
    // (\.\d+)? is greedy but may give way when no exponent follows it.
    const auto exponent = [&](pos_t p) -> pos_t {
      if (at(p) != 'e' && at(p) != 'E') return no_match;
      ++p;
      if (at(p) == '-') ++p;
      if (!is_digit(at(p))) return no_match;
      while (is_digit(at(p))) ++p;
      return p;
    };
    if (at(i) == '.' && is_digit(at(i + 1))) {
      pos_t p = i + 1;
      while (is_digit(at(p))) ++p;
      if (const pos_t e = exponent(p); e != no_match) return e;
    }
    return exponent(i);
  }

  // (?![_A-ZÀ-Ü])-?(\d+(\.\d*)|\.\d+)(?![_A-ZÀ-Ü]), backtracking over \d* and \d+.
  pos_t float_plain(pos_t i) const {
    const auto free_after = [&](pos_t p) { return !(is_letter(at(p)) || at(p) == '_'); };
    if (at(i) == '-') ++i;
    if (is_digit(at(i))) {
      pos_t run = i;
      while (is_digit(at(run))) ++run;
      // \d+ may end anywhere in the run, then a '.', then \d* as long as the look-ahead allows.
      for (pos_t d = run; d > i; --d) {
        if (at(d) != '.') continue;
        pos_t frac = d + 1;
        while (is_digit(at(frac))) ++frac;
        for (pos_t f = frac; f >= d + 1; --f) {
          if (free_after(f)) return f;
        }
      }
      return no_match;
    }
    if (at(i) == '.' && is_digit(at(i + 1))) {
      pos_t frac = i + 1;
      while (is_digit(at(frac))) ++frac;
      for (pos_t f = frac; f > i + 1; --f) {
        if (free_after(f)) return f;
      }
    }
    return no_match;
  }

  // (?![_A-ZÀ-Ü])-?\d+(?![_A-ZÀ-Ü]), backtracking over \d+.
  pos_t integer(pos_t i) const {
    if (at(i) == '-') ++i;
    pos_t run = i;
    while (is_digit(at(run))) ++run;
    for (pos_t e = run; e > i; --e) {
      if (!(is_letter(at(e)) || at(e) == '_')) return e;
    }
    return no_match;
  }

  // ((LEFT\s+|RIGHT\s+|FULL\s+)?(INNER\s+|OUTER\s+|STRAIGHT\s+)?|(CROSS\s+|NATURAL\s+)?)?JOIN\b
  pos_t join_keyword(pos_t i) const {
    const auto word_then_spaces = [&](pos_t p, std::initializer_list<std::string_view> words) -> pos_t {
      for (std::string_view w : words) {
        const pos_t e = literal(p, w);
        if (e == no_match) continue;
        const pos_t sp = spaces1(e);
        if (sp != no_match) return sp;
      }
      return no_match;
    };
    const auto join_at = [&](pos_t p) -> pos_t {
      const pos_t e = literal(p, "JOIN");
      return e != no_match && boundary(e) ? e : no_match;
    };
    std::vector<pos_t> starts;
    const pos_t a = word_then_spaces(i, {"LEFT", "RIGHT", "FULL"});
    const pos_t a_or_i = a != no_match ? a : i;
    const pos_t b = word_then_spaces(a_or_i, {"INNER", "OUTER", "STRAIGHT"});
    if (b != no_match) starts.push_back(b);
    if (a != no_match) starts.push_back(a);
    starts.push_back(i);
    const pos_t c = word_then_spaces(i, {"CROSS", "NATURAL"});
    if (c != no_match) starts.push_back(c);
    for (const pos_t p : starts) {
      if (const pos_t e = join_at(p); e != no_match) return e;
    }
    return no_match;
  }

  // WORD(\s+WORD)*\b for the fixed keyword phrases of SQL_REGEX.
  pos_t phrase(pos_t i, std::initializer_list<std::string_view> words) const {
    pos_t p = i;
    bool first = true;
    for (std::string_view w : words) {
      if (!first) {
        p = spaces1(p);
        if (p == no_match) return no_match;
      }
      p = literal(p, w);
      if (p == no_match) return no_match;
      first = false;
    }
    return boundary(p) ? p : no_match;
  }

  pos_t next(pos_t i, sqlparse_kind& kind) const {
    const unsigned char c = at(i);
    kind = sqlparse_kind::other;
    if (pos_t e = line_comment(i); e != no_match) return e;
    if (literal(i, "/*") != no_match) {
      const std::size_t close = s_.find("*/", i + 2);
      if (close != std::string_view::npos) return close + 2;
    }
    if (c == '\r' || c == '\n') {
      kind = sqlparse_kind::newline;
      return literal(i, "\r\n") != no_match ? i + 2 : i + 1;
    }
    if (is_space(c)) {
      kind = sqlparse_kind::whitespace;
      return i + 1;
    }
    if (literal(i, ":=") != no_match || literal(i, "::") != no_match) return i + 2;
    if (c == '*') return i + 1;
    if (c == '`') {
      if (pos_t e = quoted(i, '`', false); e != no_match) return e;
    }
    if (literal(i, "\xC2\xB4") != no_match) {  // ´...´
      const std::size_t close = s_.find("\xC2\xB4", i + 2);
      if (close != std::string_view::npos) return close + 2;
    }
    if (c == '$' && (i == 0 || is_space(at(i - 1)))) {  // ((?<!\S)\$(?:[_A-ZÀ-Ü]\w*)?\$)[\s\S]*?\1
      pos_t p = i + 1;
      if (is_letter(at(p)) || at(p) == '_') p = word_run(p + 1);
      if (at(p) == '$') {
        const std::string_view tag = s_.substr(i, p + 1 - i);
        const std::size_t close = s_.find(tag, p + 1);
        if (close != std::string_view::npos) return close + tag.size();
      }
    }
    if (c == '?') return i + 1;
    if (c == '%') {  // %(\(\w+\))?s
      pos_t p = i + 1;
      if (at(p) == '(') {
        const pos_t w = word_run(p + 1);
        if (w > p + 1 && at(w) == ')') p = w + 1;
      }
      if (at(p) == 's' || at(p) == 'S') return p + 1;
    }
    if ((c == '$' || c == ':' || c == '?') && !(i > 0 && is_word(at(i - 1))) && is_word(at(i + 1)))
      return word_run(i + 1);  // (?<!\w)[$:?]\w+
    if (c == '\\' && is_word(at(i + 1))) return word_run(i + 1);
    if (pos_t e = phrase(i, {"NOT", "IN"}); e != no_match) return e;
    for (std::string_view w : {"CASE", "IN", "VALUES", "USING", "FROM", "AS"}) {
      if (pos_t e = phrase(i, {w}); e != no_match) return e;
    }
    if (c == '@' || c == '#') {  // (@|##|#)[A-ZÀ-Ü]\w+
      const pos_t p = literal(i, "##") != no_match ? i + 2 : i + 1;
      if (is_letter(at(p)) && is_word(at(p + 1))) return word_run(p + 1);
    }
    if (is_letter(c)) {
      const pos_t w = word_run(i + 1);
      pos_t p = w;
      while (is_space(at(p))) ++p;
      if (at(p) == '.') return w;               // [A-ZÀ-Ü]\w*(?=\s*\.)
      if (i > 0 && at(i - 1) == '.') return w;  // (?<=\.)[A-ZÀ-Ü]\w*
      if (at(w) == '(') return w;               // [A-ZÀ-Ü]\w*(?=\()
    }
    if (literal(i, "-0x") != no_match || literal(i, "0x") != no_match) {  // -?0x[\dA-F]+
      pos_t p = i + (c == '-' ? 3 : 2);
      if (is_hex(at(p))) {
        while (is_hex(at(p))) ++p;
        return p;
      }
    }
    if (pos_t e = float_exponent(i); e != no_match) return e;
    if (pos_t e = float_plain(i); e != no_match) return e;
    if (pos_t e = integer(i); e != no_match) return e;
    if (c == '\'') {
      if (pos_t e = quoted(i, '\''); e != no_match) {
        kind = sqlparse_kind::string_single;
        return e;
      }
    }
    if (c == '"') {
      if (pos_t e = quoted(i, '"'); e != no_match) {
        kind = sqlparse_kind::string_symbol;
        return e;
      }
    }
    if (c == '[' && !(i > 0 && (is_word(at(i - 1)) || at(i - 1) == ']' || at(i - 1) == ')'))) {
      pos_t p = i + 1;
      while (has(p) && at(p) != ']' && at(p) != '[') ++p;
      if (p > i + 1 && at(p) == ']') return p + 1;
    }
    if (pos_t e = join_keyword(i); e != no_match) return e;
    for (const auto& words : {std::initializer_list<std::string_view>{"END", "IF"},
                              {"END", "LOOP"},
                              {"END", "WHILE"},
                              {"END"},
                              {"NOT", "NULL"},
                              {"NULLS", "FIRST"},
                              {"NULLS", "LAST"},
                              {"UNION", "ALL"},
                              {"CREATE", "OR", "REPLACE"},
                              {"CREATE"},
                              {"DOUBLE", "PRECISION"},
                              {"GROUP", "BY"},
                              {"ORDER", "BY"},
                              {"HANDLER", "FOR"}}) {
      if (pos_t e = phrase(i, words); e != no_match) return e;
    }
    for (std::string_view view : {"EXPLODE", "INLINE", "PARSE_URL_TUPLE", "POSEXPLODE", "STACK"}) {
      if (pos_t e = phrase(i, {"LATERAL", "VIEW", view}); e != no_match) return e;
    }
    for (std::string_view at_word : {"AT", "WITH'"}) {  // (AT|WITH')\s+TIME\s+ZONE\s+'[^']+'
      pos_t p = literal(i, at_word);
      if (p == no_match) continue;
      for (std::string_view w : {"TIME", "ZONE"}) {
        p = spaces1(p);
        if (p != no_match) p = literal(p, w);
        if (p == no_match) break;
      }
      if (p != no_match) p = spaces1(p);
      if (p != no_match && at(p) == '\'') {
        pos_t q = p + 1;
        while (has(q) && at(q) != '\'') ++q;
        if (q > p + 1 && at(q) == '\'') return q + 1;
      }
    }
    for (std::string_view like : {"LIKE", "ILIKE", "RLIKE"}) {
      if (pos_t e = phrase(i, {"NOT", like}); e != no_match) return e;
      if (pos_t e = phrase(i, {like}); e != no_match) return e;
    }
    if (is_word(c)) {  // [0-9_A-ZÀ-Ü][_$#\w]*
      pos_t p = i + 1;
      while (has(p) && (is_word(at(p)) || at(p) == '$' || at(p) == '#')) ++p;
      return p;
    }
    if (std::string_view(";:()[],.").find(static_cast<char>(c)) != std::string_view::npos) return i + 1;
    const auto run = [&](std::string_view set) {
      pos_t p = i;
      while (has(p) && set.find(static_cast<char>(at(p))) != std::string_view::npos) ++p;
      return p;
    };
    if (pos_t e = run("<>=~!"); e > i) return e;
    if (pos_t e = run("+/@#%^&|-"); e > i) return e;
    return i + 1;  // an Error token of one character
  }

  std::string_view s_;
};

}  // namespace

std::vector<sqlparse_token> sqlparse_tokens(std::string_view sql) {
  return lexer(sql).run();
}

}  // namespace sqlmorph::reference
