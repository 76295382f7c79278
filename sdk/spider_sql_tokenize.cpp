// process_sql's tokenize(): quoted values set aside, then NLTK's word_tokenize (the Treebank rules
// of NLTKWordTokenizer, NLTK 3.8), lower-casing, and `! =` `> =` `< =` rejoined.
//
// NLTK's tokenizer is a fixed sequence of regular-expression substitutions followed by a split on
// whitespace. Each substitution is reproduced below as one pass over the text, in NLTK's order.
// Quotes never reach it (process_sql has replaced every quoted value by a `__val_i_j__` key), so
// the substitutions about `'` and `"` cannot match and are left out. word_tokenize first splits the
// text into sentences with the Punkt model; each sentence is then tokenized alone. For SQL that only
// changes where a "final period" is split off, and a token ending in a period fails to parse either
// way, so the text is tokenized as one sentence (NLTK's preserve_line).

#include <string>
#include <string_view>
#include <vector>

#include "sqlmorph/spider_sql.hpp"
#include "sqlmorph/unicode.hpp"

namespace sqlmorph::spider {
namespace {

// The byte length of the whitespace character at `i` (Python's str.isspace), or 0.
std::size_t space_at(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) return 1;
  if (c < 0x80 || i + 1 >= s.size()) return 0;
  const auto c1 = static_cast<unsigned char>(s[i + 1]);
  if (c == 0xc2 && (c1 == 0x85 || c1 == 0xa0)) return 2;
  if (i + 2 >= s.size()) return 0;
  const auto c2 = static_cast<unsigned char>(s[i + 2]);
  if (c == 0xe1 && c1 == 0x9a && c2 == 0x80) return 3;  // U+1680
  if (c == 0xe2 && c1 == 0x80 && (c2 <= 0x8a || c2 == 0xa8 || c2 == 0xa9 || c2 == 0xaf)) return 3;
  if (c == 0xe2 && c1 == 0x81 && c2 == 0x9f) return 3;  // U+205F
  if (c == 0xe3 && c1 == 0x80 && c2 == 0x80) return 3;  // U+3000
  return 0;
}

// The byte length of the UTF-8 character starting at `i` (1 for a stray byte).
std::size_t char_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
  for (std::size_t k = 1; k < n; ++k) {
    if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 1;
  }
  return n;
}

// The length of one of `chars` (UTF-8 sequences) starting at `i`, or 0.
std::size_t one_of(std::string_view s, std::size_t i, std::initializer_list<std::string_view> chars) {
  for (const std::string_view c : chars) {
    if (s.substr(i, c.size()) == c) return c.size();
  }
  return 0;
}

constexpr std::string_view open_quotes[] = {"\u00ab", "\u201c", "\u2018", "\u201e"};  // « “ ‘ „
constexpr std::string_view close_quotes[] = {"\u00bb", "\u201d", "\u2019"};           // » ” ’

// Pads every match of a single-character class with spaces: re.sub(r"[...]", r" \g<0> ", s).
template <class Pred>
std::string pad_chars(std::string_view s, Pred is_member) {
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = is_member(s, i);
    if (n > 0) {
      out += ' ';
      out.append(s.substr(i, n));
      out += ' ';
      i += n;
    } else {
      out += s[i++];
    }
  }
  return out;
}

std::size_t any_of_ascii(std::string_view s, std::size_t i, std::string_view set) {
  return set.find(s[i]) != std::string_view::npos ? 1 : 0;
}

// STARTING_QUOTES: ([«“‘„]|[`]+) -> " \1 ", then (``) -> " \1 ".
std::string starting_quotes(std::string_view s) {
  std::string t = pad_chars(s, [](std::string_view x, std::size_t i) {
    for (const std::string_view q : open_quotes) {
      if (x.substr(i, q.size()) == q) return q.size();
    }
    std::size_t n = 0;
    while (i + n < x.size() && x[i + n] == '`') ++n;
    return n;
  });
  std::string out;
  for (std::size_t i = 0; i < t.size();) {
    if (t.compare(i, 2, "``") == 0) {
      out += " `` ";
      i += 2;
    } else {
      out += t[i++];
    }
  }
  return out;
}

// The "final period" rules: ([^\.])(\.)([CLASS]*)\s*$ -> "\1 \2 \3 " (with_space) or "\1 \2\3 ".
// Only the last period can match: the text after it must be closing brackets or quotes, then space.
std::string final_period(std::string_view s, bool wide_class) {
  const std::size_t p = s.rfind('.');
  if (p == std::string_view::npos || p == 0 || s[p - 1] == '.') return std::string(s);
  std::size_t j = p + 1;
  while (j < s.size()) {
    std::size_t n = any_of_ascii(s, j, "])}>\"'");
    if (n == 0 && wide_class)
      n = s[j] == ' ' ? 1 : one_of(s, j, {close_quotes[0], close_quotes[1], close_quotes[2]});
    if (n == 0) break;
    j += n;
  }
  const std::size_t class_end = j;
  while (j < s.size()) {
    const std::size_t n = space_at(s, j);
    if (n == 0) break;
    j += n;
  }
  if (j != s.size()) return std::string(s);
  std::string out(s.substr(0, p));
  out += wide_class ? " . " : " .";
  out.append(s.substr(p + 1, class_end - p - 1));
  out += ' ';
  return out;
}

// ([:,])([^\d]) -> " \1 \2" and ([:,])$ -> " \1 ".
std::string commas_and_colons(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if ((c == ':' || c == ',') && i + 1 < s.size() && !(s[i + 1] >= '0' && s[i + 1] <= '9')) {
      const std::size_t n = char_length(s, i + 1);
      out += ' ';
      out += c;
      out += ' ';
      out.append(s.substr(i + 1, n));
      i += 1 + n;
    } else {
      out += s[i++];
    }
  }
  // `$` matches at the very end and before a final newline.
  std::size_t last = out.size();
  if (last > 0 && out[last - 1] == '\n') --last;
  if (last > 0 && (out[last - 1] == ':' || out[last - 1] == ',')) {
    const char c = out[last - 1];
    out = out.substr(0, last - 1) + " " + c + " " + out.substr(last);
  }
  return out;
}

// \.{2,} -> " \g<0> ".
std::string ellipses(std::string_view s) {
  return pad_chars(s, [](std::string_view x, std::size_t i) -> std::size_t {
    std::size_t n = 0;
    while (i + n < x.size() && x[i + n] == '.') ++n;
    return n >= 2 ? n : 0;
  });
}

// -- -> " -- " (left to right, without overlap).
std::string double_dashes(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "--") == 0) {
      out += " -- ";
      i += 2;
    } else {
      out += s[i++];
    }
  }
  return out;
}

bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || u == '_' || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

// CONTRACTIONS2 without apostrophes: \b(can)(not)\b, (gim)(me), (gon)(na), (got)(ta), (lem)(me),
// and (wan)(na)(?=\s) become two words.
std::string contractions(std::string_view s) {
  static constexpr std::pair<std::string_view, std::size_t> words[] = {
      {"cannot", 3}, {"gimme", 3}, {"gonna", 3}, {"gotta", 3}, {"lemme", 3}, {"wanna", 3}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (!is_word_byte(s[i])) {
      out += s[i++];
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && is_word_byte(s[j])) ++j;
    const std::string_view word = s.substr(i, j - i);
    std::size_t split = 0;
    for (const auto& [w, at] : words) {
      if (iequals(word, w) && (w != "wanna" || (j < s.size() && space_at(s, j) > 0))) split = at;
    }
    if (split > 0) {
      out += ' ';
      out.append(word.substr(0, split));
      out += ' ';
      out.append(word.substr(split));
      out += ' ';
    } else {
      out.append(word);
    }
    i = j;
  }
  return out;
}

std::vector<std::string> split_on_space(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (const std::size_t n = space_at(s, i); n > 0) {
      i += n;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && space_at(s, j) == 0) ++j;
    out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// NLTKWordTokenizer.tokenize: the substitutions in NLTK's order, then str.split().
std::vector<std::string> word_tokenize(std::string_view text) {
  std::string t = starting_quotes(text);
  t = final_period(t, true);
  t = commas_and_colons(t);
  t = ellipses(t);
  t = pad_chars(t, [](std::string_view x, std::size_t i) { return any_of_ascii(x, i, ";@#$%&"); });
  t = final_period(t, false);
  t = pad_chars(t, [](std::string_view x, std::size_t i) { return any_of_ascii(x, i, "?!"); });
  t = pad_chars(t, [](std::string_view x, std::size_t i) { return any_of_ascii(x, i, "*"); });
  t = pad_chars(t, [](std::string_view x, std::size_t i) { return any_of_ascii(x, i, "[](){}<>"); });
  t = double_dashes(t);
  t = " " + t + " ";
  t = pad_chars(t, [](std::string_view x, std::size_t i) {
    return one_of(x, i, {close_quotes[0], close_quotes[1], close_quotes[2]});
  });
  t = contractions(t);
  return split_on_space(t);
}

}  // namespace

std::vector<std::string> tokenize(std::string_view sql, std::string* error) {
  // Every ' becomes ", and each pair of quotes (first with second, third with fourth, ...) is one
  // value, replaced by a key that survives word tokenization.
  std::string text(sql);
  std::vector<std::size_t> quotes;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\'') text[i] = '"';
    if (text[i] == '"') quotes.push_back(i);
  }
  if (quotes.size() % 2 != 0) {
    if (error != nullptr) *error = "Unexpected quote";
    return {};
  }
  std::vector<std::pair<std::string, std::string>> values;  // key, value with its quotes
  std::string keyed;
  std::size_t from = 0;
  for (std::size_t i = 0; i < quotes.size(); i += 2) {
    const std::size_t q1 = quotes[i];
    const std::size_t q2 = quotes[i + 1];
    std::string key = "__val_" + std::to_string(q1) + "_" + std::to_string(q2) + "__";
    keyed.append(text, from, q1 - from);
    keyed += key;
    values.emplace_back(std::move(key), text.substr(q1, q2 - q1 + 1));
    from = q2 + 1;
  }
  keyed.append(text, from, std::string::npos);

  std::vector<std::string> toks = word_tokenize(keyed);
  for (std::string& tok : toks) {
    tok = python_lower(tok);
    if (tok.size() > 6 && tok.compare(0, 6, "__val_") == 0) {
      for (const auto& [key, value] : values) {
        if (tok == key) {
          tok = value;
          break;
        }
      }
    }
  }
  // `!`, `>`, `<` followed by `=` become one operator, scanning the `=` from the last; like Python,
  // an `=` at index 0 looks at the last token (toks[-1]).
  std::vector<std::size_t> eq;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (toks[i] == "=") eq.push_back(i);
  }
  for (auto it = eq.rbegin(); it != eq.rend(); ++it) {
    const std::size_t e = *it;
    const std::size_t before = e == 0 ? toks.size() - 1 : e - 1;
    const std::string& pre = toks[before];
    if (pre != "!" && pre != ">" && pre != "<") continue;
    std::vector<std::string> merged;
    // toks[:eq_idx-1] + [pre_tok + "="] + toks[eq_idx+1:], with Python's slice of a -1 bound.
    const std::size_t head = e == 0 ? toks.size() - 1 : e - 1;
    merged.insert(merged.end(), toks.begin(), toks.begin() + static_cast<std::ptrdiff_t>(head));
    merged.push_back(pre + "=");
    merged.insert(merged.end(), toks.begin() + static_cast<std::ptrdiff_t>(e + 1), toks.end());
    toks = std::move(merged);
  }
  return toks;
}

}  // namespace sqlmorph::spider
