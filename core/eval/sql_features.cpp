#include "eval/sql_features.hpp"

#include <set>
#include <string>
#include <vector>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::core {
namespace {

bool is(const sql_token& t, std::string_view keyword) {
  return t.kind == sql_token_kind::word && iequals_ascii(t.text, keyword);
}

bool any_of(const sql_token& t, std::initializer_list<std::string_view> words) {
  for (const std::string_view w : words) {
    if (is(t, w)) return true;
  }
  return false;
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return out;
}

// A table name token (bare or quoted); its text without quotes.
bool table_name(const sql_token& t, std::string& out) {
  if (t.kind == sql_token_kind::word) {
    out = lowered(t.text);
    return true;
  }
  if (t.kind == sql_token_kind::quoted_name && t.text.size() >= 2) {
    out = lowered(t.text.substr(1, t.text.size() - 2));
    return true;
  }
  return false;
}

// Words that end a FROM list.
bool ends_from(const sql_token& t) {
  return any_of(t, {"where", "group", "order", "having", "limit", "union", "intersect", "except", "minus",
                    "window", "fetch", "offset", "on", "using"});
}

}  // namespace

sql_features features_of(std::string_view sql) {
  std::vector<sql_token> tokens;
  for (const sql_token& t : lex_sql(first_statement(sql))) {
    if (!is_trivia(t)) tokens.push_back(t);
  }
  sql_features f;
  std::set<std::string> tables;
  // Per open parenthesis: whether it opened a subquery.
  std::vector<bool> parens;
  int depth = 0;  // open subqueries
  // Parenthesis depth of the FROM list being read (-1: none), and whether a table is expected next.
  int from_level = -1;
  bool expect_table = false;
  const auto at = [&](std::size_t i) -> const sql_token* { return i < tokens.size() ? &tokens[i] : nullptr; };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const sql_token& t = tokens[i];
    const sql_token* next = at(i + 1);
    const int level = static_cast<int>(parens.size());
    if (t.kind == sql_token_kind::punctuation && t.text == "(") {
      const bool sub = next != nullptr && (is(*next, "select") || is(*next, "with"));
      parens.push_back(sub);
      if (sub) {
        ++f.subqueries;
        f.nesting_depth = std::max(f.nesting_depth, ++depth);
      }
      expect_table = false;
      continue;
    }
    if (t.kind == sql_token_kind::punctuation && t.text == ")") {
      if (!parens.empty()) {
        if (parens.back()) --depth;
        parens.pop_back();
      }
      if (from_level > static_cast<int>(parens.size())) from_level = -1;
      continue;
    }
    if (expect_table) {
      expect_table = false;
      std::string name;
      if (table_name(t, name) && !ends_from(t) && !is(t, "select") && !is(t, "lateral")) tables.insert(name);
    }
    if (from_level == level && t.kind == sql_token_kind::punctuation && t.text == ",") {
      ++f.joins;  // FROM a, b: an implicit join
      expect_table = true;
      continue;
    }
    if (from_level == level && ends_from(t)) from_level = -1;
    if (t.kind == sql_token_kind::word) {
      if (is(t, "from")) {
        from_level = level;
        expect_table = true;
      } else if (is(t, "join")) {
        ++f.joins;
        expect_table = true;
      } else if (is(t, "group") && next != nullptr && is(*next, "by")) {
        f.group_by = true;
      } else if (is(t, "order") && next != nullptr && is(*next, "by")) {
        // ORDER BY inside OVER (...) belongs to the window, not to the query.
        bool in_window = false;
        for (std::size_t k = i; k-- > 0;) {
          if (tokens[k].kind == sql_token_kind::punctuation &&
              (tokens[k].text == "(" || tokens[k].text == ")")) {
            in_window = tokens[k].text == "(" && k > 0 && is(tokens[k - 1], "over");
            break;
          }
        }
        if (!in_window) f.order_by = true;
      } else if (is(t, "having")) {
        f.having = true;
      } else if (any_of(t, {"limit", "top"}) ||
                 (is(t, "fetch") && next != nullptr && any_of(*next, {"first", "next"}))) {
        f.limit = true;
      } else if (any_of(t, {"union", "intersect", "except", "minus"})) {
        ++f.set_operations;
      } else if (any_of(t, {"count", "sum", "avg", "min", "max", "group_concat", "string_agg", "total"}) &&
                 next != nullptr && next->kind == sql_token_kind::punctuation && next->text == "(") {
        ++f.aggregates;
      } else if (is(t, "over") && next != nullptr &&
                 (next->kind == sql_token_kind::word ||
                  (next->kind == sql_token_kind::punctuation && next->text == "("))) {
        ++f.window_functions;
      } else if (any_of(t, {"like", "ilike", "glob"})) {
        f.like = true;
        ++f.conditions;
      } else if (any_of(t, {"in", "between", "is", "exists"})) {
        ++f.conditions;
      } else if (is(t, "distinct")) {
        f.distinct = true;
      } else if (is(t, "case")) {
        f.case_when = true;
      }
      continue;
    }
    if (t.kind == sql_token_kind::op &&
        (t.text == "=" || t.text == "==" || t.text == "<>" || t.text == "!=" || t.text == "<" ||
         t.text == ">" || t.text == "<=" || t.text == ">=")) {
      ++f.conditions;
    }
  }
  f.tables = static_cast<int>(tables.size());
  return f;
}

bool has_feature(const sql_features& f, std::size_t i) noexcept {
  switch (i) {
    case 0:
      return f.joins > 0;
    case 1:
      return f.subqueries > 0;
    case 2:
      return f.group_by;
    case 3:
      return f.having;
    case 4:
      return f.order_by;
    case 5:
      return f.limit;
    case 6:
      return f.set_operations > 0;
    case 7:
      return f.aggregates > 0;
    case 8:
      return f.window_functions > 0;
    case 9:
      return f.like;
    case 10:
      return f.distinct;
    case 11:
      return f.case_when;
    default:
      return false;
  }
}

std::uint32_t feature_mask(const sql_features& f) noexcept {
  std::uint32_t mask = 0;
  for (std::size_t i = 0; i < feature_names.size(); ++i) {
    if (has_feature(f, i)) mask |= 1u << i;
  }
  return mask;
}

nlohmann::ordered_json features_json(const sql_features& f) {
  return {{"joins", f.joins},
          {"subqueries", f.subqueries},
          {"nesting_depth", f.nesting_depth},
          {"set_operations", f.set_operations},
          {"aggregates", f.aggregates},
          {"window_functions", f.window_functions},
          {"tables", f.tables},
          {"conditions", f.conditions},
          {"group_by", f.group_by},
          {"having", f.having},
          {"order_by", f.order_by},
          {"limit", f.limit},
          {"like", f.like},
          {"distinct", f.distinct},
          {"case", f.case_when}};
}

bool features_from_json(const nlohmann::json& j, sql_features& out) {
  if (!j.is_object()) return false;
  try {
    out = sql_features{};
    out.joins = j.at("joins").get<int>();
    out.subqueries = j.at("subqueries").get<int>();
    out.nesting_depth = j.at("nesting_depth").get<int>();
    out.set_operations = j.at("set_operations").get<int>();
    out.aggregates = j.at("aggregates").get<int>();
    out.window_functions = j.at("window_functions").get<int>();
    out.tables = j.at("tables").get<int>();
    out.conditions = j.at("conditions").get<int>();
    out.group_by = j.at("group_by").get<bool>();
    out.having = j.at("having").get<bool>();
    out.order_by = j.at("order_by").get<bool>();
    out.limit = j.at("limit").get<bool>();
    out.like = j.at("like").get<bool>();
    out.distinct = j.at("distinct").get<bool>();
    out.case_when = j.at("case").get<bool>();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace sqlmorph::core
