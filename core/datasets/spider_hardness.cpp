#include "datasets/spider_hardness.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::core {
namespace {

// The parts of process_sql's parse that eval_hardness looks at.
struct col_unit {
  bool agg = false;
};
struct val_unit {
  col_unit first;
  std::optional<col_unit> second;
};
struct parsed_sql;
struct cond_unit {
  bool not_op = false;
  bool like = false;
  bool nested = false;  // a value is a subquery
  int nested_count = 0;
};
// A condition list as process_sql builds it: cond_unit, "and"/"or", cond_unit, ...
struct condition {
  std::vector<cond_unit> units;
  std::vector<std::string> connectors;
  std::size_t size() const { return units.size() + connectors.size(); }
};
struct parsed_sql {
  std::vector<std::pair<bool, val_unit>> select;  // (has agg, val_unit)
  std::size_t table_units = 0;
  condition from_conds;
  condition where;
  condition having;
  std::vector<col_unit> group_by;
  bool has_order = false;
  std::vector<val_unit> order_by;
  bool has_limit = false;
  int set_operations = 0;  // intersect / union / except
};

struct parse_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool is_clause_keyword(const std::string& t) {
  static const char* k[] = {"select", "from",      "where", "group", "order",
                            "limit",  "intersect", "union", "except"};
  return std::find(std::begin(k), std::end(k), t) != std::end(k);
}
bool is_join_keyword(const std::string& t) {
  return t == "join" || t == "on" || t == "as";
}
bool is_agg(const std::string& t) {
  return t == "max" || t == "min" || t == "count" || t == "sum" || t == "avg" || t == "none";
}
bool is_unit_op(const std::string& t) {
  return t == "-" || t == "+" || t == "*" || t == "/" || t == "none";
}
bool is_where_op(const std::string& t) {
  static const char* k[] = {"not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists"};
  return std::find(std::begin(k), std::end(k), t) != std::end(k);
}

struct token {
  std::string text;  // lower-cased, except string literals
  bool string = false;
  bool number = false;
};

// Tokens as process_sql's tokenize gives them: words lower-cased, `alias.column` as one token,
// strings as one token, !=, >=, <= as one operator.
std::vector<token> tokenize(std::string_view sql) {
  std::vector<token> out;
  const auto lexed = lex_sql(sql);
  for (std::size_t i = 0; i < lexed.size(); ++i) {
    const sql_token& t = lexed[i];
    if (is_trivia(t)) continue;
    token tok;
    switch (t.kind) {
      case sql_token_kind::string:
      case sql_token_kind::quoted_name:
        tok.text = std::string(t.text);
        tok.string = t.text.front() == '\'' || t.text.front() == '"';
        break;
      case sql_token_kind::number:
        tok.text = std::string(t.text), tok.number = true;
        break;
      default: {
        std::string text(t.text);
        for (char& c : text) {
          if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        }
        tok.text = text;
      }
    }
    // `t1 . name` written without spaces is one token for NLTK.
    if (t.kind == sql_token_kind::punctuation && t.text == "." && !out.empty() && i + 1 < lexed.size() &&
        lexed[i - 1].offset + lexed[i - 1].text.size() == t.offset &&
        (lexed[i + 1].kind == sql_token_kind::word || lexed[i + 1].text == "*") &&
        lexed[i + 1].offset == t.offset + 1) {
      std::string next(lexed[i + 1].text);
      for (char& c : next) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      }
      out.back().text += "." + next;
      ++i;
      continue;
    }
    out.push_back(std::move(tok));
  }
  return out;
}

class parser {
 public:
  explicit parser(std::vector<token> toks) : toks_(std::move(toks)) {}

  parsed_sql parse_sql(std::size_t& idx) {
    const std::size_t start = idx;
    bool block = false;
    if (is(idx, "(")) {
      block = true;
      ++idx;
    }
    parsed_sql sql;
    std::size_t from_end = parse_from(start, sql);
    std::size_t select_idx = idx;
    parse_select(select_idx, sql);
    idx = from_end;
    parse_where(idx, sql);
    parse_group_by(idx, sql);
    parse_having(idx, sql);
    parse_order_by(idx, sql);
    parse_limit(idx, sql);
    skip_semicolon(idx);
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    skip_semicolon(idx);
    if (idx < toks_.size() && (is(idx, "intersect") || is(idx, "union") || is(idx, "except"))) {
      ++idx;
      parse_sql(idx);
      sql.set_operations = 1;
    }
    return sql;
  }

 private:
  bool is(std::size_t idx, const char* text) const { return idx < toks_.size() && toks_[idx].text == text; }
  const std::string& at(std::size_t idx) const {
    if (idx >= toks_.size()) throw parse_failure("unexpected end");
    return toks_[idx].text;
  }
  void expect(std::size_t idx, const char* text) const {
    if (!is(idx, text)) throw parse_failure(std::string("expected ") + text);
  }
  void skip_semicolon(std::size_t& idx) const {
    while (is(idx, ";")) ++idx;
  }

  void parse_col(std::size_t& idx) const {
    const token& t = toks_.at(idx);
    const bool name = !t.string && !t.number && !t.text.empty() &&
                      (t.text == "*" || std::isalpha(static_cast<unsigned char>(t.text[0])) ||
                       t.text[0] == '_' || static_cast<unsigned char>(t.text[0]) >= 0x80) &&
                      !is_clause_keyword(t.text);
    if (!name) throw parse_failure("not a column: " + t.text);
    ++idx;
  }

  col_unit parse_col_unit(std::size_t& idx) const {
    bool block = false;
    if (is(idx, "(")) {
      block = true;
      ++idx;
    }
    if (is_agg(at(idx))) {
      ++idx;
      expect(idx, "(");
      ++idx;
      if (is(idx, "distinct")) ++idx;
      parse_col(idx);
      expect(idx, ")");
      ++idx;
      return {true};  // process_sql leaves a block's ')' to the caller here
    }
    if (is(idx, "distinct")) ++idx;
    parse_col(idx);
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    return {false};
  }

  val_unit parse_val_unit(std::size_t& idx) const {
    bool block = false;
    if (is(idx, "(")) {
      block = true;
      ++idx;
    }
    val_unit v;
    v.first = parse_col_unit(idx);
    if (idx < toks_.size() && is_unit_op(toks_[idx].text)) {
      ++idx;
      v.second = parse_col_unit(idx);
    }
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    return v;
  }

  // Returns whether the value is a subquery.
  bool parse_value(std::size_t& idx) {
    const std::size_t start = idx;
    bool block = false;
    if (is(idx, "(")) {
      block = true;
      ++idx;
    }
    bool nested = false;
    if (is(idx, "select")) {
      parse_sql(idx);
      nested = true;
    } else if (idx < toks_.size() && toks_[idx].string) {
      ++idx;
    } else if (idx < toks_.size() && toks_[idx].number) {
      ++idx;
    } else {
      std::size_t end = idx;
      while (end < toks_.size() && !is(end, ",") && !is(end, ")") && !is(end, "and") &&
             !is_clause_keyword(toks_[end].text) && !is_join_keyword(toks_[end].text)) {
        ++end;
      }
      // process_sql parses toks[start:end] as a column unit (from `start`, before any '(').
      parser sub(std::vector<token>(toks_.begin() + static_cast<long>(start),
                                    toks_.begin() + static_cast<long>(end)));
      std::size_t sub_idx = 0;
      sub.parse_col_unit(sub_idx);
      idx = end;
    }
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    return nested;
  }

  condition parse_condition(std::size_t& idx) {
    condition conds;
    while (idx < toks_.size()) {
      parse_val_unit(idx);
      cond_unit c;
      if (is(idx, "not")) {
        c.not_op = true;
        ++idx;
      }
      if (!is_where_op(at(idx))) throw parse_failure("not a condition operator: " + at(idx));
      const std::string op = at(idx);
      ++idx;
      c.like = op == "like";
      if (op == "between") {
        c.nested_count += parse_value(idx);
        expect(idx, "and");
        ++idx;
        c.nested_count += parse_value(idx);
      } else {
        c.nested_count += parse_value(idx);
      }
      conds.units.push_back(c);
      if (idx < toks_.size() && (is_clause_keyword(toks_[idx].text) || is(idx, ")") || is(idx, ";") ||
                                 is_join_keyword(toks_[idx].text))) {
        break;
      }
      if (is(idx, "and") || is(idx, "or")) {
        conds.connectors.push_back(toks_[idx].text);
        ++idx;
      }
    }
    return conds;
  }

  std::size_t parse_from(std::size_t start, parsed_sql& sql) {
    std::size_t idx = start;
    while (idx < toks_.size() && !is(idx, "from")) ++idx;
    if (idx >= toks_.size()) throw parse_failure("'from' not found");
    ++idx;
    while (idx < toks_.size()) {
      bool block = false;
      if (is(idx, "(")) {
        block = true;
        ++idx;
      }
      if (is(idx, "select")) {
        parse_sql(idx);
      } else {
        if (is(idx, "join")) ++idx;
        parse_col(idx);  // the table name
        if (is(idx, "as")) idx += 2;
      }
      ++sql.table_units;
      if (is(idx, "on")) {
        ++idx;
        condition more = parse_condition(idx);
        if (!sql.from_conds.units.empty()) sql.from_conds.connectors.push_back("and");
        sql.from_conds.units.insert(sql.from_conds.units.end(), more.units.begin(), more.units.end());
        sql.from_conds.connectors.insert(sql.from_conds.connectors.end(), more.connectors.begin(),
                                         more.connectors.end());
      }
      if (block) {
        expect(idx, ")");
        ++idx;
      }
      if (idx < toks_.size() && (is_clause_keyword(toks_[idx].text) || is(idx, ")") || is(idx, ";"))) break;
    }
    return idx;
  }

  void parse_select(std::size_t& idx, parsed_sql& sql) {
    expect(idx, "select");
    ++idx;
    if (is(idx, "distinct")) ++idx;
    while (idx < toks_.size() && !is_clause_keyword(toks_[idx].text)) {
      bool agg = false;
      if (is_agg(toks_[idx].text)) {
        agg = true;
        ++idx;
      }
      sql.select.push_back({agg, parse_val_unit(idx)});
      if (is(idx, ",")) ++idx;
    }
  }

  void parse_where(std::size_t& idx, parsed_sql& sql) {
    if (!is(idx, "where")) return;
    ++idx;
    sql.where = parse_condition(idx);
  }

  void parse_group_by(std::size_t& idx, parsed_sql& sql) {
    if (!is(idx, "group")) return;
    ++idx;
    expect(idx, "by");
    ++idx;
    while (idx < toks_.size() && !(is_clause_keyword(toks_[idx].text) || is(idx, ")") || is(idx, ";"))) {
      sql.group_by.push_back(parse_col_unit(idx));
      if (is(idx, ","))
        ++idx;
      else
        break;
    }
  }

  void parse_having(std::size_t& idx, parsed_sql& sql) {
    if (!is(idx, "having")) return;
    ++idx;
    sql.having = parse_condition(idx);
  }

  void parse_order_by(std::size_t& idx, parsed_sql& sql) {
    if (!is(idx, "order")) return;
    ++idx;
    expect(idx, "by");
    ++idx;
    sql.has_order = true;
    while (idx < toks_.size() && !(is_clause_keyword(toks_[idx].text) || is(idx, ")") || is(idx, ";"))) {
      sql.order_by.push_back(parse_val_unit(idx));
      if (is(idx, "asc") || is(idx, "desc")) ++idx;
      if (is(idx, ","))
        ++idx;
      else
        break;
    }
  }

  void parse_limit(std::size_t& idx, parsed_sql& sql) {
    if (!is(idx, "limit")) return;
    idx += 2;
    if (idx > toks_.size() || !toks_[idx - 1].number) throw parse_failure("limit needs a number");
    sql.has_limit = true;
  }

  std::vector<token> toks_;
};

int count_component1(const parsed_sql& s) {
  int count = 0;
  count += !s.where.units.empty();
  count += !s.group_by.empty();
  count += s.has_order;
  count += s.has_limit;
  if (s.table_units > 0) count += static_cast<int>(s.table_units) - 1;
  for (const condition* c : {&s.from_conds, &s.where, &s.having}) {
    count += static_cast<int>(std::count(c->connectors.begin(), c->connectors.end(), "or"));
    for (const cond_unit& u : c->units) count += u.like;
  }
  return count;
}

int count_component2(const parsed_sql& s) {
  int count = s.set_operations;
  for (const condition* c : {&s.from_conds, &s.where, &s.having}) {
    for (const cond_unit& u : c->units) count += u.nested_count;
  }
  return count;
}

int count_others(const parsed_sql& s) {
  int aggs = 0;
  for (const auto& [agg, v] : s.select) aggs += agg;
  for (const cond_unit& u : s.where.units) aggs += u.not_op;  // has_agg reads not_op here
  for (const col_unit& c : s.group_by) aggs += c.agg;
  for (const val_unit& v : s.order_by) {
    aggs += v.first.agg;
    if (v.second) aggs += v.second->agg;
  }
  for (const cond_unit& u : s.having.units) aggs += u.not_op;
  aggs += static_cast<int>(s.having.connectors.size());  // has_agg("and") is true in process_sql
  int count = 0;
  count += aggs > 1;
  count += s.select.size() > 1;
  count += s.where.size() > 1;
  count += s.group_by.size() > 1;
  return count;
}

}  // namespace

std::string spider_hardness(std::string_view sql) {
  try {
    parser p(tokenize(sql));
    std::size_t idx = 0;
    const parsed_sql s = p.parse_sql(idx);
    const int c1 = count_component1(s);
    const int c2 = count_component2(s);
    const int others = count_others(s);
    if (c1 <= 1 && others == 0 && c2 == 0) return "easy";
    if ((others <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && others < 2 && c2 == 0)) return "medium";
    if ((others > 2 && c1 <= 2 && c2 == 0) || (c1 > 2 && c1 <= 3 && others <= 2 && c2 == 0) ||
        (c1 <= 1 && others == 0 && c2 <= 1)) {
      return "hard";
    }
    return "extra";
  } catch (const parse_failure&) {
    return {};
  } catch (const std::out_of_range&) {
    return {};
  }
}

}  // namespace sqlmorph::core
