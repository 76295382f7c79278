#include "suite/neighbour_queries.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::core::suite {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

bool is_word(const sql_token& t, std::string_view w) {
  return t.kind == sql_token_kind::word && iequals_ascii(t.text, w);
}

bool is_punct(const sql_token& t, std::string_view p) {
  return t.kind == sql_token_kind::punctuation && t.text == p;
}

bool is_any_word(const sql_token& t, std::initializer_list<std::string_view> words) {
  for (const std::string_view w : words)
    if (is_word(t, w)) return true;
  return false;
}

// Keywords after which an operator character is a prefix (unary) or a star, not arithmetic.
bool is_operand_keyword(const sql_token& t) {
  return is_any_word(
      t, {"select", "distinct", "all",  "where",   "and",   "or",        "on",     "by",    "having",
          "not",    "like",     "in",   "between", "then",  "else",      "when",   "case",  "limit",
          "as",     "from",     "join", "is",      "union", "intersect", "except", "offset"});
}

bool ends_clause(const sql_token& t) {
  return is_any_word(t, {"where", "group", "having", "order", "limit", "union", "intersect", "except"}) ||
         is_punct(t, ";");
}

// A simple identifier needs no quotes.
std::string as_identifier(const std::string& name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      plain = false;
  return plain ? name : quote_sql_name(name);
}

std::string format_real(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// The contents of a '...' or "..." token, doubled quotes undone.
std::string unquote(std::string_view text) {
  if (text.size() < 2) return std::string(text);
  const char q = text.front();
  std::string out;
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    out += text[i];
    if (text[i] == q && i + 2 < text.size() && text[i + 1] == q) ++i;
  }
  return out;
}

std::string quote_as(char q, const std::string& s) {
  std::string out(1, q);
  for (const char c : s) {
    if (c == q) out += q;
    out += c;
  }
  return out + q;
}

class neighbour_maker {
 public:
  neighbour_maker(std::string_view gold, const neighbour_schema& schema, seeded_random& random,
                  const neighbour_options& options)
      : gold_(gold), schema_(schema), random_(random), options_(options), tokens_(lex_sql(gold)) {
    for (std::size_t i = 0; i < tokens_.size(); ++i)
      if (!is_trivia(tokens_[i])) sig_.push_back(i);
    depth_.resize(sig_.size());
    int d = 0;
    for (std::size_t k = 0; k < sig_.size(); ++k) {
      const sql_token& t = tok(k);
      if (is_punct(t, ")")) --d;
      depth_[k] = d;
      if (is_punct(t, "(")) ++d;
    }
    for (std::size_t k = 0; k < sig_.size(); ++k) {
      const std::optional<std::string> n = name_of(tok(k));
      if (!n) continue;
      for (const auto& t : schema_.tables)
        if (lower(t.name) == *n) query_tables_.insert(&t - schema_.tables.data());
    }
  }

  std::vector<neighbour_query> make() {
    for (std::size_t k = 0; k < sig_.size(); ++k) {
      drops(k);
      families(k);
      constants(k);
    }
    return std::move(out_);
  }

 private:
  const sql_token& tok(std::size_t k) const { return tokens_[sig_[k]]; }
  std::size_t begin_of(std::size_t k) const { return tok(k).offset; }
  std::size_t end_of(std::size_t k) const { return tok(k).offset + tok(k).text.size(); }

  // The lower-case name a word or quoted name token spells.
  std::optional<std::string> name_of(const sql_token& t) const {
    if (t.kind == sql_token_kind::word) return lower(t.text);
    if (t.kind == sql_token_kind::quoted_name) return lower(unquote(t.text));
    return std::nullopt;
  }

  bool names_schema_object(const std::string& name) const {
    for (const auto& t : schema_.tables) {
      if (lower(t.name) == name) return true;
      for (const auto& c : t.columns)
        if (lower(c.name) == name) return true;
    }
    return false;
  }

  // Replaces the bytes [from, to) of the gold query by `text`.
  void add(std::size_t from, std::size_t to, const std::string& text, const char* family) {
    std::string sql;
    sql.reserve(gold_.size() + text.size() + 1);
    sql.append(gold_.substr(0, from));
    // Keep the tokens apart: "a" + "" + "b" must not become "ab".
    const auto wordy = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
             c == '\'' || c == '"' || static_cast<unsigned char>(c) >= 0x80;
    };
    const bool left = from > 0 && wordy(gold_[from - 1]);
    const bool right = to < gold_.size() && wordy(gold_[to]);
    if (text.empty()) {
      if (left && right) sql += ' ';
    } else {
      if (left && wordy(text.front())) sql += ' ';
      sql += text;
      if (right && wordy(text.back())) sql += ' ';
    }
    sql.append(gold_.substr(to));
    if (sql == gold_) return;
    if (!seen_.insert(sql).second) return;
    out_.push_back({std::move(sql), family});
  }
  void replace(std::size_t k, const std::string& text, const char* family) {
    add(begin_of(k), end_of(k), text, family);
  }

  // The first significant index after k's clause: where a clause starting at k ends.
  std::size_t clause_end(std::size_t k) const {
    const int d = depth_[k];
    for (std::size_t j = k + 1; j < sig_.size(); ++j) {
      if (depth_[j] < d) return j;
      if (depth_[j] == d && (ends_clause(tok(j)) || is_punct(tok(j), ")"))) return j;
    }
    return sig_.size();
  }
  std::size_t byte_before(std::size_t j) const { return j < sig_.size() ? begin_of(j) : gold_.size(); }

  void drops(std::size_t k) {
    const sql_token& t = tok(k);
    if (is_word(t, "distinct")) replace(k, "", "drop");
    if (is_word(t, "limit")) {
      const std::size_t end = clause_end(k);
      add(begin_of(k), byte_before(end), "", "drop");
    }
    if ((is_word(t, "order") || is_word(t, "group")) && k + 1 < sig_.size() && is_word(tok(k + 1), "by")) {
      const std::size_t end = clause_end(k);
      add(begin_of(k), byte_before(end), "", "drop");
    }
    if (is_word(t, "where") || is_word(t, "having")) drop_conjuncts(k);
  }

  void drop_conjuncts(std::size_t k) {
    const std::size_t end = clause_end(k);
    const int d = depth_[k];
    std::vector<std::size_t> connectors;  // AND/OR at the clause's depth, not BETWEEN's AND
    bool between = false;
    for (std::size_t j = k + 1; j < end; ++j) {
      if (depth_[j] != d) continue;
      if (is_word(tok(j), "between")) between = true;
      if (is_word(tok(j), "and") && between) {
        between = false;
        continue;
      }
      if (is_word(tok(j), "and") || is_word(tok(j), "or")) connectors.push_back(j);
    }
    if (connectors.empty()) {
      add(begin_of(k), byte_before(end), "", "drop");
      return;
    }
    // Part i runs from after connector i-1 to before connector i.
    const std::size_t parts = connectors.size() + 1;
    for (std::size_t i = 0; i < parts; ++i) {
      if (i == 0) {
        add(begin_of(k + 1), begin_of(connectors[0] + 1), "", "drop");
      } else {
        const std::size_t from = begin_of(connectors[i - 1]);
        const std::size_t to = i < connectors.size() ? begin_of(connectors[i]) : byte_before(end);
        add(from, to, "", "drop");
      }
    }
  }

  void families(std::size_t k) {
    const sql_token& t = tok(k);
    const bool next_is_paren = k + 1 < sig_.size() && is_punct(tok(k + 1), "(");
    static const std::vector<std::string_view> aggregates = {"COUNT", "SUM", "AVG", "MIN", "MAX"};
    if (t.kind == sql_token_kind::word && next_is_paren) {
      for (const std::string_view a : aggregates) {
        if (!iequals_ascii(t.text, a)) continue;
        for (const std::string_view b : aggregates)
          if (b != a) replace(k, std::string(b), "aggregate");
        return;
      }
    }
    if (t.kind == sql_token_kind::op) {
      static const std::vector<std::string_view> comparisons = {"=", "!=", "<", ">", "<=", ">="};
      const std::string_view text = t.text == "<>" ? std::string_view("!=") : t.text;
      if (std::find(comparisons.begin(), comparisons.end(), text) != comparisons.end()) {
        for (const std::string_view c : comparisons)
          if (c != text) replace(k, std::string(c), "comparison");
        return;
      }
      static const std::vector<std::string_view> arithmetic = {"+", "-", "*", "/"};
      if (std::find(arithmetic.begin(), arithmetic.end(), t.text) != arithmetic.end() && k > 0 &&
          k + 1 < sig_.size()) {
        const sql_token& prev = tok(k - 1);
        const sql_token& next = tok(k + 1);
        const bool left = (prev.kind == sql_token_kind::word && !is_operand_keyword(prev)) ||
                          prev.kind == sql_token_kind::number || prev.kind == sql_token_kind::quoted_name ||
                          is_punct(prev, ")");
        const bool right = (next.kind == sql_token_kind::word && !is_operand_keyword(next)) ||
                           next.kind == sql_token_kind::number || next.kind == sql_token_kind::quoted_name ||
                           is_punct(next, "(");
        if (left && right) {
          for (const std::string_view a : arithmetic)
            if (a != t.text) replace(k, std::string(a), "arithmetic");
        }
      }
      return;
    }
    if (is_word(t, "asc")) replace(k, "DESC", "order");
    if (is_word(t, "desc")) replace(k, "ASC", "order");
    if (is_word(t, "or")) replace(k, "AND", "logic");
    if (is_word(t, "and") && !between_and(k)) replace(k, "OR", "logic");
    if (is_word(t, "like") || (is_word(t, "in") && next_is_paren)) {
      const char* family = is_word(t, "like") ? "like" : "in";
      if (k > 0 && is_word(tok(k - 1), "not"))
        add(begin_of(k - 1), end_of(k), std::string(t.text), family);
      else
        replace(k, "NOT " + std::string(t.text), family);
    }
    columns(k);
  }

  // An AND that closes a BETWEEN at the same depth.
  bool between_and(std::size_t k) const {
    for (std::size_t j = k; j-- > 0;) {
      if (depth_[j] < depth_[k]) return false;
      if (depth_[j] != depth_[k]) continue;
      if (is_word(tok(j), "between")) return true;
      if (is_word(tok(j), "and") || is_word(tok(j), "or") || ends_clause(tok(j)) || is_word(tok(j), "select"))
        return false;
    }
    return false;
  }

  void columns(std::size_t k) {
    const sql_token& t = tok(k);
    if (t.kind != sql_token_kind::word && t.kind != sql_token_kind::quoted_name) return;
    if (t.kind == sql_token_kind::quoted_name && t.text.front() != '"' && t.text.front() != '`') return;
    const std::optional<std::string> name = name_of(t);
    if (!name) return;
    if (k + 1 < sig_.size() && (is_punct(tok(k + 1), "(") || is_punct(tok(k + 1), "."))) return;
    if (k > 0 && is_any_word(tok(k - 1), {"as", "from", "join"})) return;
    // The kind of the column the token names in one of the query's tables.
    std::optional<value_kind> kind;
    for (const std::size_t ti : query_tables_)
      for (const auto& c : schema_.tables[ti].columns)
        if (!kind && lower(c.name) == *name) kind = c.kind;
    if (!kind) return;
    std::vector<std::string> others;
    std::set<std::string> seen{*name};
    for (const std::size_t ti : query_tables_) {
      for (const auto& c : schema_.tables[ti].columns) {
        if (!compatible_kinds(c.kind, *kind) || !seen.insert(lower(c.name)).second) continue;
        others.push_back(c.name);
      }
    }
    random_.shuffle(others);
    if (others.size() > options_.columns_per_position) others.resize(options_.columns_per_position);
    for (const std::string& o : others) replace(k, as_identifier(o), "column");
  }

  void constants(std::size_t k) {
    const sql_token& t = tok(k);
    if (t.kind == sql_token_kind::number) {
      const std::string text(t.text);
      const bool integer = text.find_first_not_of("0123456789") == std::string::npos;
      if (integer && text.size() <= 15) {
        const long long v = std::stoll(text);
        if (v > 0) replace(k, std::to_string(v - 1), "number");
        replace(k, std::to_string(v + 1), "number");
        const long long hi = std::max<long long>(10, v * 2);
        replace(k, std::to_string(random_.between(0, hi)), "number");
      } else if (!integer) {
        double v = 0;
        try {
          v = std::stod(text);
        } catch (const std::exception&) {
          return;
        }
        replace(k, format_real(v - 0.01), "number");
        replace(k, format_real(v + 0.01), "number");
      }
      return;
    }
    const bool single = t.kind == sql_token_kind::string;
    const bool double_quoted = t.kind == sql_token_kind::quoted_name && t.text.front() == '"';
    if (!single && !double_quoted) return;
    const std::string s = unquote(t.text);
    if (double_quoted && names_schema_object(lower(s))) return;
    const char q = t.text.front();
    std::vector<std::string> variants;
    if (s.find('%') != std::string::npos) {
      std::string plain;
      for (const char c : s)
        if (c != '%') plain += c;
      variants.push_back(plain);
    } else {
      variants.push_back("%" + s + "%");
    }
    if (s.size() > 1) {
      variants.push_back(s.substr(1));
      variants.push_back(s.substr(0, s.size() - 1));
    }
    for (const std::string& v : variants) replace(k, quote_as(q, v), "string");
  }

  std::string_view gold_;
  const neighbour_schema& schema_;
  seeded_random& random_;
  neighbour_options options_;
  std::vector<sql_token> tokens_;
  std::vector<std::size_t> sig_;  // indices of the significant tokens
  std::vector<int> depth_;        // parenthesis depth of each significant token
  std::set<std::size_t> query_tables_;
  std::set<std::string> seen_;
  std::vector<neighbour_query> out_;
};

}  // namespace

std::vector<neighbour_query> neighbour_queries(std::string_view gold, const neighbour_schema& schema,
                                               seeded_random& random, const neighbour_options& options) {
  return neighbour_maker(gold, schema, random, options).make();
}

std::vector<std::string> query_string_constants(std::string_view sql, const neighbour_schema& schema) {
  std::set<std::string> names;
  for (const auto& t : schema.tables) {
    names.insert(lower(t.name));
    for (const auto& c : t.columns) names.insert(lower(c.name));
  }
  std::vector<std::string> out;
  for (const sql_token& t : lex_sql(sql)) {
    const bool single = t.kind == sql_token_kind::string;
    const bool double_quoted = t.kind == sql_token_kind::quoted_name && t.text.front() == '"';
    if (!single && !double_quoted) continue;
    std::string s;
    for (const char c : unquote(t.text))
      if (c != '%') s += c;
    if (double_quoted && names.count(lower(s)) > 0) continue;
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

std::vector<double> query_number_constants(std::string_view sql) {
  std::vector<double> out;
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind != sql_token_kind::number) continue;
    try {
      const double v = std::stod(std::string(t.text));
      if (std::isfinite(v) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    } catch (const std::exception&) {
    }
  }
  return out;
}

}  // namespace sqlmorph::core::suite
