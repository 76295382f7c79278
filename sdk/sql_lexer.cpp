#include "sqlmorph/sql_lexer.hpp"

#include <cstring>

namespace sqlmorph {
namespace {

bool is_ascii_alpha(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_word_start(unsigned char c) {
  return is_ascii_alpha(c) || is_digit(c) || c == '_' || c >= 0x80;
}
bool is_word_char(unsigned char c) {
  return is_word_start(c) || c == '$' || c == '#';
}
bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}
bool is_operator_char(unsigned char c) {
  return std::strchr("<>=~!+/@#%^&|`?-", c) != nullptr && c != 0;
}

class lexer {
 public:
  explicit lexer(std::string_view s) : s_(s) {}

  std::vector<sql_token> run() {
    std::vector<sql_token> out;
    while (pos_ < s_.size()) {
      const std::size_t start = pos_;
      const sql_token_kind kind = next();
      out.push_back({kind, s_.substr(start, pos_ - start), start});
    }
    return out;
  }

 private:
  unsigned char at(std::size_t i) const { return i < s_.size() ? static_cast<unsigned char>(s_[i]) : 0; }
  bool starts_with(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }

  void to_line_end() {
    while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
    if (starts_with("\r\n"))
      pos_ += 2;
    else if (pos_ < s_.size())
      ++pos_;
  }

  // A quoted run closed by `q`, where a doubled `q` or a backslash escape stays inside.
  void quoted(char q, bool backslash_escapes) {
    ++pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (backslash_escapes && c == '\\' && pos_ + 1 < s_.size()) {
        pos_ += 2;
      } else if (c == q) {
        if (at(pos_ + 1) == static_cast<unsigned char>(q)) {
          pos_ += 2;
        } else {
          ++pos_;
          return;
        }
      } else {
        ++pos_;
      }
    }
  }

  bool dollar_quote() {
    // $tag$ ... $tag$ where tag is empty or a name.
    std::size_t p = pos_ + 1;
    if (p < s_.size() && (is_ascii_alpha(at(p)) || at(p) == '_' || at(p) >= 0x80)) {
      while (p < s_.size() && (is_word_char(at(p)) && at(p) != '$' && at(p) != '#')) ++p;
    }
    if (at(p) != '$') return false;
    const std::string_view tag = s_.substr(pos_, p + 1 - pos_);
    const std::size_t close = s_.find(tag, p + 1);
    if (close == std::string_view::npos) return false;
    pos_ = close + tag.size();
    return true;
  }

  void number() {
    if (at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X') && is_hex(at(pos_ + 2))) {
      pos_ += 2;
      while (is_hex(at(pos_))) ++pos_;
      return;
    }
    while (is_digit(at(pos_))) ++pos_;
    if (at(pos_) == '.') {
      ++pos_;
      while (is_digit(at(pos_))) ++pos_;
    }
    if ((at(pos_) == 'e' || at(pos_) == 'E') &&
        (is_digit(at(pos_ + 1)) ||
         ((at(pos_ + 1) == '-' || at(pos_ + 1) == '+') && is_digit(at(pos_ + 2))))) {
      pos_ += 2;
      while (is_digit(at(pos_))) ++pos_;
    }
  }

  sql_token_kind next() {
    const unsigned char c = at(pos_);
    if (starts_with("--") || starts_with("# ")) {
      to_line_end();
      return sql_token_kind::comment;
    }
    if (starts_with("/*")) {
      const std::size_t close = s_.find("*/", pos_ + 2);
      pos_ = close == std::string_view::npos ? s_.size() : close + 2;
      return sql_token_kind::comment;
    }
    if (c == '\n' || c == '\r') {
      pos_ += starts_with("\r\n") ? 2 : 1;
      return sql_token_kind::newline;
    }
    if (is_space(c)) {
      while (is_space(at(pos_))) ++pos_;
      return sql_token_kind::whitespace;
    }
    if (c == '\'') {
      quoted('\'', true);
      return sql_token_kind::string;
    }
    if (c == '"') {
      quoted('"', true);
      return sql_token_kind::quoted_name;
    }
    if (c == '`') {
      quoted('`', false);
      return sql_token_kind::quoted_name;
    }
    if (c == '[' &&
        (pos_ == 0 || (!is_word_char(at(pos_ - 1)) && at(pos_ - 1) != ']' && at(pos_ - 1) != ')'))) {
      const std::size_t close = s_.find(']', pos_ + 1);
      if (close != std::string_view::npos && close > pos_ + 1) {
        pos_ = close + 1;
        return sql_token_kind::quoted_name;
      }
    }
    if (c == '$' && dollar_quote()) return sql_token_kind::dollar_string;
    if (c == '?') {
      ++pos_;
      return sql_token_kind::placeholder;
    }
    if ((c == ':' || c == '$') && is_word_char(at(pos_ + 1)) && (pos_ == 0 || !is_word_char(at(pos_ - 1)))) {
      ++pos_;
      while (is_word_char(at(pos_))) ++pos_;
      return sql_token_kind::placeholder;
    }
    if (c == '%' && (at(pos_ + 1) == 's' || at(pos_ + 1) == '(')) {
      if (at(pos_ + 1) == 's') {
        pos_ += 2;
        return sql_token_kind::placeholder;
      }
      const std::size_t close = s_.find(")s", pos_ + 2);
      if (close != std::string_view::npos) {
        pos_ = close + 2;
        return sql_token_kind::placeholder;
      }
    }
    if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
      const std::size_t start = pos_;
      number();
      // Digits glued to letters form one word (e.g. `1st`), as in sqlparse.
      if (is_word_char(at(pos_)) && at(pos_) != '.') {
        // `.5x` is not a number and `.` starts no word: the dot alone, then the word `5x` (as in
        // sqlparse). Going back to `start` here would never move on.
        if (c == '.') {
          pos_ = start + 1;
          return sql_token_kind::punctuation;
        }
        pos_ = start;
        while (is_word_char(at(pos_))) ++pos_;
        return sql_token_kind::word;
      }
      return sql_token_kind::number;
    }
    if (is_word_start(c)) {
      while (is_word_char(at(pos_))) ++pos_;
      return sql_token_kind::word;
    }
    if (std::strchr(";:()[],.", c) != nullptr && c != 0) {
      ++pos_;
      return sql_token_kind::punctuation;
    }
    if (c == '*') {
      ++pos_;
      return sql_token_kind::op;
    }
    if (is_operator_char(c)) {
      const bool comparison = std::strchr("<>=~!", c) != nullptr;
      while (pos_ < s_.size() && is_operator_char(at(pos_)) &&
             (std::strchr("<>=~!", at(pos_)) != nullptr) == comparison) {
        // A "--" inside an operator run starts a comment.
        if (starts_with("--")) break;
        ++pos_;
      }
      return sql_token_kind::op;
    }
    ++pos_;
    return sql_token_kind::other;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<sql_token> lex_sql(std::string_view sql) {
  return lexer(sql).run();
}

bool iequals_ascii(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    unsigned char x = static_cast<unsigned char>(a[i]);
    unsigned char y = static_cast<unsigned char>(b[i]);
    if (x >= 'A' && x <= 'Z') x = static_cast<unsigned char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<unsigned char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool is_trivia(const sql_token& t) noexcept {
  return t.kind == sql_token_kind::whitespace || t.kind == sql_token_kind::newline ||
         t.kind == sql_token_kind::comment;
}

bool has_top_level_order_by(std::string_view sql) {
  const std::vector<sql_token> tokens = lex_sql(first_statement(sql));
  int depth = 0;
  const sql_token* previous = nullptr;  // last meaningful token at any depth
  for (const sql_token& t : tokens) {
    if (is_trivia(t)) continue;
    if (t.kind == sql_token_kind::punctuation && t.text == "(") ++depth;
    if (t.kind == sql_token_kind::punctuation && t.text == ")" && depth > 0) --depth;
    if (depth == 0 && t.kind == sql_token_kind::word && iequals_ascii(t.text, "by") && previous != nullptr &&
        previous->kind == sql_token_kind::word && iequals_ascii(previous->text, "order")) {
      return true;
    }
    previous = &t;
  }
  return false;
}

std::string_view first_statement(std::string_view sql) {
  int depth = 0;
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind != sql_token_kind::punctuation) continue;
    if (t.text == "(")
      ++depth;
    else if (t.text == ")" && depth > 0)
      --depth;
    else if (t.text == ";" && depth == 0)
      return sql.substr(0, t.offset + 1);
  }
  return sql;
}

namespace {

// `text` between two `quote`s, each `quote` inside doubled.
std::string quoted(std::string_view text, char quote) {
  std::string out(1, quote);
  for (const char c : text) {
    if (c == quote) out += quote;
    out += c;
  }
  return out + quote;
}

}  // namespace

std::string quote_sql_name(std::string_view name) {
  return quoted(name, '"');
}

std::string quote_sql_string(std::string_view text) {
  return quoted(text, '\'');
}

}  // namespace sqlmorph
