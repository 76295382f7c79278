#include "spider_plug_value.hpp"

#include <algorithm>
#include <stdexcept>

#include <sqlmorph/unicode.hpp>

#include "sqlparse_lexer.hpp"

namespace sqlmorph::reference {
namespace {

constexpr std::string_view slot_upper = "VALUERARE";

bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
bool is_python_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
         (c >= 0x1c && c <= 0x1f);
}

std::string_view strip(std::string_view s) {
  while (!s.empty() && is_python_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && is_python_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// str.replace: every non-overlapping occurrence, left to right.
std::string replace_all(std::string_view text, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(text);  // (Python would insert `to` everywhere; never happens here)
  std::string out;
  std::size_t copied = 0;
  for (std::size_t pos = text.find(from); pos != std::string_view::npos;
       pos = text.find(from, pos + from.size())) {
    out.append(text.substr(copied, pos - copied));
    out.append(to);
    copied = pos + from.size();
  }
  out.append(text.substr(copied));
  return out;
}

// str.split() with no separator.
std::vector<std::string> split_pieces(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_python_space(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !is_python_space(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

std::string join(const std::vector<std::string>& pieces) {
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) out += ' ';
    out += pieces[i];
  }
  return out;
}

// re.findall(r"[-+]?\d*\.\d+", text)
std::vector<std::string> find_floats(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t p = i + ((s[i] == '-' || s[i] == '+') ? 1 : 0);
    while (p < s.size() && is_digit(static_cast<unsigned char>(s[p]))) ++p;
    if (p + 1 < s.size() && s[p] == '.' && is_digit(static_cast<unsigned char>(s[p + 1]))) {
      p += 1;
      while (p < s.size() && is_digit(static_cast<unsigned char>(s[p]))) ++p;
      out.emplace_back(s.substr(i, p - i));
      i = p;
    } else {
      ++i;
    }
  }
  return out;
}

// [m.strip() for m in re.findall(r"[^tT]\d+", text)]
std::vector<std::string> find_integers(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] != 't' && s[i] != 'T' && i + 1 < s.size() && is_digit(static_cast<unsigned char>(s[i + 1]))) {
      std::size_t p = i + 1;
      while (p < s.size() && is_digit(static_cast<unsigned char>(s[p]))) ++p;
      out.emplace_back(strip(s.substr(i, p - i)));
      i = p;
    } else {
      ++i;
    }
  }
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// True when the piece contains [Tt]\d+\. (a table alias followed by a dot).
bool has_alias_dot(std::string_view piece) {
  for (std::size_t i = 0; i < piece.size(); ++i) {
    if (piece[i] != 't' && piece[i] != 'T') continue;
    std::size_t p = i + 1;
    while (p < piece.size() && is_digit(static_cast<unsigned char>(piece[p]))) ++p;
    if (p > i + 1 && p < piece.size() && piece[p] == '.') return true;
  }
  return false;
}

// reformat_query: ';' and tabs removed, the sqlparse tokens other than whitespace joined by single
// spaces, `t1.*` .. `T3.*` replaced by `*`.
std::string reformat_query(std::string_view sql) {
  std::string q = replace_all(replace_all(strip(sql), ";", ""), "\t", "");
  std::string out;
  bool first = true;
  for (const sqlparse_token& t : sqlparse_tokens(q)) {
    if (t.kind == sqlparse_kind::whitespace) continue;
    if (!first) out += ' ';
    out.append(t.text);
    first = false;
  }
  for (const char* star : {"t1.*", "t2.*", "t3.*", "T1.*", "T2.*", "T3.*"}) out = replace_all(out, star, "*");
  return out;
}

// re.sub(r"(T\d+\.)\s", r"\1", text): the whitespace after `T<digits>.` removed.
std::string join_alias_dots(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == 'T') {
      std::size_t p = i + 1;
      while (p < s.size() && is_digit(static_cast<unsigned char>(s[p]))) ++p;
      if (p > i + 1 && p + 1 < s.size() && s[p] == '.' &&
          is_python_space(static_cast<unsigned char>(s[p + 1]))) {
        out.append(s.substr(i, p + 1 - i));
        i = p + 2;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

}  // namespace

query_values extract_query_values(std::string_view sql) {
  // (sqlparse.format(keyword_case='upper') only changes the case of keywords, which strip_query
  // lower-cases again: it cannot change a piece or a value, so it is not repeated here.)
  std::string query = join_alias_dots(reformat_query(sql));
  query_values out;
  std::vector<std::string> values;
  for (const sqlparse_token& t : sqlparse_tokens(query)) {
    if (t.kind == sqlparse_kind::string_single || t.kind == sqlparse_kind::string_symbol)
      values.emplace_back(t.text);
  }
  for (const std::string& v : values) {
    out.values.insert(v);
    query = replace_all(query, strip(v), slot_upper);
  }
  std::vector<std::string> pieces = split_pieces(query);
  const std::vector<std::string> floats = find_floats(query);
  for (std::string& p : pieces) {
    if (contains(floats, p)) {
      out.values.insert(p);
      p = slot_upper;
    }
  }
  const std::vector<std::string> integers = find_integers(join(pieces));
  for (std::string& p : pieces) {
    if (contains(integers, p)) {
      out.values.insert(p);
      p = slot_upper;
    }
  }
  for (const std::string& p : pieces) {
    if (p.find('.') != std::string::npos && has_alias_dot(p)) {
      for (const std::string& part : split_pieces(replace_all(p, ".", " . ")))
        out.pieces.push_back(python_lower(part));
    } else {
      out.pieces.push_back(python_lower(p));
    }
  }
  return out;
}

std::uint64_t plug_count(std::size_t values, std::size_t slots, std::uint64_t cap) {
  std::uint64_t n = 1;
  for (std::size_t i = 0; i < slots; ++i) {
    if (values == 0) return 0;
    if (n > cap / values) return cap + 1;
    n *= values;
  }
  return n > cap ? cap + 1 : n;
}

spider_plug_value::spider_plug_value(const option_values& o) : plug_value_(o.get_bool("plug_value")) {
  max_candidates_ = static_cast<std::uint64_t>(o.get_int_at_least("max_candidates", 1));
}

candidate_list spider_plug_value::do_candidates_(std::string_view gold_sql, std::string_view pred_sql) const {
  candidate_list out;
  // The official parser raises on a query without any token (sqlparse.parse("")[0]); there is
  // nothing to plug into then.
  if (!plug_value_ || strip(pred_sql).empty() || strip(gold_sql).empty()) return out;
  const query_values gold = extract_query_values(gold_sql);
  const query_values pred = extract_query_values(pred_sql);
  std::vector<std::size_t> slots;
  for (std::size_t i = 0; i < pred.pieces.size(); ++i) {
    if (pred.pieces[i] == value_slot) slots.push_back(i);
  }
  const std::vector<std::string> values(gold.values.begin(), gold.values.end());
  out.total = plug_count(values.size(), slots.size(), max_candidates_);
  if (out.total > max_candidates_) return out;
  // Every assignment of values to slots, as itertools.product enumerates them (the order only
  // decides which passing candidate is found first, never the verdict).
  std::vector<std::size_t> choice(slots.size(), 0);
  std::vector<std::string> pieces = pred.pieces;
  for (std::uint64_t n = 0; n < out.total; ++n) {
    for (std::size_t k = 0; k < slots.size(); ++k) pieces[slots[k]] = values[choice[k]];
    out.sql.push_back(join(pieces));
    for (std::size_t k = slots.size(); k-- > 0;) {
      if (++choice[k] < values.size()) break;
      choice[k] = 0;
    }
  }
  return out;
}

}  // namespace sqlmorph::reference
