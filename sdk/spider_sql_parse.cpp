// process_sql's grammar (get_sql and the parse_* functions it calls), function for function: the
// same token tests in the same order, the same places where Python would raise (an index past the
// end, a failed assert, an unknown key), so that exactly the same queries parse, into the same tree.

#include <algorithm>
#include <cstdlib>
#include <map>
#include <span>
#include <stdexcept>

#include "sqlmorph/spider_sql.hpp"

namespace sqlmorph::spider {
namespace {

struct parse_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr const char* clause_keywords[] = {"select", "from",      "where", "group", "order",
                                           "limit",  "intersect", "union", "except"};
constexpr const char* join_keywords[] = {"join", "on", "as"};
constexpr const char* sql_ops[] = {"intersect", "union", "except"};
constexpr const char* order_ops[] = {"desc", "asc"};

template <std::size_t N>
int index_in(const char* const (&list)[N], std::string_view tok) {
  for (std::size_t i = 0; i < N; ++i) {
    if (tok == list[i]) return static_cast<int>(i);
  }
  return -1;
}
template <std::size_t N>
bool in(const char* const (&list)[N], std::string_view tok) {
  return index_in(list, tok) >= 0;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Python's float(text): digits with single underscores between them, an optional fraction and
// exponent, or inf / infinity / nan, each with an optional sign.
bool python_float(std::string_view t, double& out) {
  std::string digits;
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) digits += t[i++];
  const std::string_view rest = t.substr(i);
  for (const char* special : {"inf", "infinity", "nan"}) {
    if (rest.size() == std::string_view(special).size() &&
        std::equal(rest.begin(), rest.end(), special,
                   [](char a, char b) { return (a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a) == b; })) {
      out = std::strtod((digits + special).c_str(), nullptr);
      return true;
    }
  }
  // digitpart: digit (_? digit)*; returns false when there is no digit.
  const auto digit_part = [&](std::size_t& k) {
    if (k >= t.size() || !is_digit(t[k])) return false;
    digits += t[k++];
    while (k < t.size()) {
      if (is_digit(t[k])) {
        digits += t[k++];
      } else if (t[k] == '_' && k + 1 < t.size() && is_digit(t[k + 1])) {
        ++k;
      } else {
        break;
      }
    }
    return true;
  };
  const bool whole = digit_part(i);
  bool fraction = false;
  if (i < t.size() && t[i] == '.') {
    digits += t[i++];
    fraction = digit_part(i);
  }
  if (!whole && !fraction) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    digits += t[i++];
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) digits += t[i++];
    if (!digit_part(i)) return false;
  }
  if (i != t.size()) return false;
  out = std::strtod(digits.c_str(), nullptr);
  return true;
}

bool is_string_token(std::string_view tok) {
  return tok.find('"') != std::string_view::npos;
}

// Without a schema, a name is any token that could be one.
bool name_like(std::string_view tok) {
  if (tok.empty() || is_string_token(tok) || in(clause_keywords, tok)) return false;
  double ignored = 0;
  if (python_float(tok, ignored)) return false;
  const auto c = static_cast<unsigned char>(tok[0]);
  return tok == "*" || c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

using alias_map = std::map<std::string, std::string, std::less<>>;

class parser {
 public:
  parser(std::span<const std::string> toks, const alias_map& aliases, const schema* s)
      : toks_(toks), aliases_(aliases), schema_(s) {}

  // parse_sql
  query parse_sql(std::size_t& idx) {
    bool block = false;
    const std::size_t start = idx;
    if (at(idx) == "(") {
      block = true;
      ++idx;
    }
    query q;
    std::vector<std::string> default_tables;
    const std::size_t from_end = parse_from(start, q, default_tables);
    std::size_t select_idx = idx;
    parse_select(select_idx, q, default_tables);
    idx = from_end;
    if (is(idx, "where")) q.where = parse_condition(++idx, default_tables);
    parse_group_by(idx, q, default_tables);
    if (is(idx, "having")) q.having = parse_condition(++idx, default_tables);
    parse_order_by(idx, q, default_tables);
    if (is(idx, "limit")) {
      idx += 2;
      at(idx - 1);  // process_sql reads the token (type(toks[idx-1])) and then ignores it
      q.limit = 1;
    }
    skip_semicolons(idx);
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    skip_semicolons(idx);
    if (idx < toks_.size()) {
      const std::string& op = toks_[idx];
      if (in(sql_ops, op)) {
        ++idx;
        deep_ptr<query> nested(parse_sql(idx));
        if (op == "intersect")
          q.intersect = std::move(nested);
        else if (op == "union")
          q.union_ = std::move(nested);
        else
          q.except = std::move(nested);
      }
    }
    return q;
  }

  // parse_col_unit
  col_unit parse_col_unit(std::size_t& idx, const std::vector<std::string>& default_tables) {
    bool block = false;
    col_unit c;
    if (at(idx) == "(") {
      block = true;
      ++idx;
    }
    if (const int agg = index_in(agg_ops, at(idx)); agg >= 0) {
      c.agg = agg;
      ++idx;
      if (!is(idx, "(")) throw parse_error("expected '(' after " + std::string(agg_ops[agg]));
      ++idx;
      if (at(idx) == "distinct") {
        ++idx;
        c.distinct = true;
      }
      c.column = parse_col(idx, default_tables);
      if (!is(idx, ")")) throw parse_error("expected ')' after " + c.column);
      ++idx;
      return c;  // a block's ')' is left to the caller, as in process_sql
    }
    if (at(idx) == "distinct") {
      ++idx;
      c.distinct = true;
    }
    c.column = parse_col(idx, default_tables);
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    return c;
  }

 private:
  bool is(std::size_t idx, std::string_view tok) const { return idx < toks_.size() && toks_[idx] == tok; }
  // toks[idx], raising where Python raises IndexError.
  const std::string& at(std::size_t idx) const {
    if (idx >= toks_.size()) throw parse_error("unexpected end of the query");
    return toks_[idx];
  }
  // assert toks[idx] == tok
  void expect(std::size_t idx, std::string_view tok) const {
    if (at(idx) != tok) throw parse_error("expected '" + std::string(tok) + "', found '" + at(idx) + "'");
  }
  void skip_semicolons(std::size_t& idx) const {
    while (is(idx, ";")) ++idx;
  }
  bool ends_clause(std::size_t idx) const {
    return idx < toks_.size() && (in(clause_keywords, toks_[idx]) || toks_[idx] == ")" || toks_[idx] == ";");
  }

  // tables_with_alias[name]
  const std::string& table_of(const std::string& name) const {
    const auto it = aliases_.find(name);
    if (it == aliases_.end()) throw parse_error("unknown table or alias: " + name);
    return it->second;
  }

  // schema.idMap[key]
  std::string id_of(const std::string& key) const {
    if (key == "*") return "__all__";
    if (schema_ != nullptr && !schema_->has_id(key)) throw parse_error("unknown column or table: " + key);
    return "__" + key + "__";
  }

  // parse_col
  std::string parse_col(std::size_t& idx, const std::vector<std::string>& default_tables) {
    const std::string& tok = at(idx);
    if (tok == "*") {
      ++idx;
      return "__all__";
    }
    if (const std::size_t dot = tok.find('.'); dot != std::string::npos) {
      if (tok.find('.', dot + 1) != std::string::npos) throw parse_error("too many dots in " + tok);
      const std::string alias = tok.substr(0, dot);
      const std::string col = tok.substr(dot + 1);
      std::string table;
      if (schema_ != nullptr) {
        table = table_of(alias);
      } else {
        const auto it = aliases_.find(alias);
        table = it == aliases_.end() ? alias : it->second;
      }
      ++idx;
      return id_of(table + "." + col);
    }
    if (default_tables.empty()) throw parse_error("no table for column " + tok);
    if (schema_ == nullptr) {
      if (!name_like(tok)) throw parse_error("not a column: " + tok);
      ++idx;
      return "__" + tok + "__";
    }
    for (const std::string& alias : default_tables) {
      const std::string& table = table_of(alias);
      const std::vector<std::string>* columns = schema_->columns_of(table);
      if (columns == nullptr) throw parse_error("unknown table: " + table);
      if (std::find(columns->begin(), columns->end(), tok) != columns->end()) {
        ++idx;
        return id_of(table + "." + tok);
      }
    }
    throw parse_error("Error col: " + tok);
  }

  // parse_val_unit
  val_unit parse_val_unit(std::size_t& idx, const std::vector<std::string>& default_tables) {
    bool block = false;
    if (at(idx) == "(") {
      block = true;
      ++idx;
    }
    val_unit v;
    v.first = parse_col_unit(idx, default_tables);
    if (idx < toks_.size()) {
      if (const int op = index_in(unit_ops, toks_[idx]); op >= 0) {
        v.op = op;
        ++idx;
        v.second = parse_col_unit(idx, default_tables);
      }
    }
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    return v;
  }

  // parse_table_unit: the table's id and its name (after the alias).
  std::pair<std::string, std::string> parse_table_unit(std::size_t& idx) {
    const std::string& tok = at(idx);
    std::string key;
    if (schema_ != nullptr) {
      key = table_of(tok);
    } else {
      if (!name_like(tok)) throw parse_error("not a table: " + tok);
      const auto it = aliases_.find(tok);
      key = it == aliases_.end() ? tok : it->second;
    }
    idx += is(idx + 1, "as") ? 3 : 1;
    return {id_of(key), key};
  }

  // parse_value
  value parse_value(std::size_t& idx, const std::vector<std::string>& default_tables) {
    const std::size_t start = idx;
    bool block = false;
    if (at(idx) == "(") {
      block = true;
      ++idx;
    }
    value v;
    double number = 0;
    if (at(idx) == "select") {
      v = deep_ptr<query>(parse_sql(idx));
    } else if (is_string_token(toks_[idx])) {
      v = toks_[idx];
      ++idx;
    } else if (python_float(toks_[idx], number)) {
      v = number;
      ++idx;
    } else {
      std::size_t end = idx;
      while (end < toks_.size() && toks_[end] != "," && toks_[end] != ")" && toks_[end] != "and" &&
             !in(clause_keywords, toks_[end]) && !in(join_keywords, toks_[end])) {
        ++end;
      }
      // process_sql parses the slice toks[start:end] (from before any '(').
      parser slice(toks_.subspan(start, end - start), aliases_, schema_);
      std::size_t slice_idx = 0;
      v = slice.parse_col_unit(slice_idx, default_tables);
      idx = end;
    }
    if (block) {
      expect(idx, ")");
      ++idx;
    }
    return v;
  }

  // parse_condition
  condition parse_condition(std::size_t& idx, const std::vector<std::string>& default_tables) {
    condition conds;
    while (idx < toks_.size()) {
      cond_unit c;
      c.left = parse_val_unit(idx, default_tables);
      if (at(idx) == "not") {
        c.negated = true;
        ++idx;
      }
      const int op = idx < toks_.size() ? index_in(where_ops, toks_[idx]) : -1;
      if (op < 0)
        throw parse_error("Error condition: " + (idx < toks_.size() ? toks_[idx] : std::string("end")));
      c.op = op;
      ++idx;
      c.first = parse_value(idx, default_tables);
      if (op == 1) {  // between .. and ..
        expect(idx, "and");
        ++idx;
        c.second = parse_value(idx, default_tables);
      }
      conds.emplace_back(std::move(c));
      if (idx < toks_.size() && (ends_clause(idx) || in(join_keywords, toks_[idx]))) break;
      if (is(idx, "and") || is(idx, "or")) conds.emplace_back(toks_[idx++]);
    }
    return conds;
  }

  // parse_select
  void parse_select(std::size_t& idx, query& q, const std::vector<std::string>& default_tables) {
    expect(idx, "select");
    ++idx;
    if (is(idx, "distinct")) {
      ++idx;
      q.select.distinct = true;
    }
    while (idx < toks_.size() && !in(clause_keywords, toks_[idx])) {
      int agg = index_in(agg_ops, toks_[idx]);
      if (agg >= 0)
        ++idx;
      else
        agg = 0;
      q.select.items.emplace_back(agg, parse_val_unit(idx, default_tables));
      if (is(idx, ",")) ++idx;
    }
  }

  // parse_from: returns the index after the FROM clause.
  std::size_t parse_from(std::size_t start, query& q, std::vector<std::string>& default_tables) {
    const auto from = std::find(toks_.begin() + static_cast<std::ptrdiff_t>(start), toks_.end(), "from");
    if (from == toks_.end()) throw parse_error("'from' not found");
    std::size_t idx = static_cast<std::size_t>(from - toks_.begin()) + 1;
    while (idx < toks_.size()) {
      bool block = false;
      if (toks_[idx] == "(") {
        block = true;
        ++idx;
      }
      if (at(idx) == "select") {
        table_unit t;
        t.subquery = deep_ptr<query>(parse_sql(idx));
        q.from_tables.push_back(std::move(t));
      } else {
        if (is(idx, "join")) ++idx;
        auto [id, name] = parse_table_unit(idx);
        q.from_tables.push_back(table_unit{std::move(id), {}});
        default_tables.push_back(std::move(name));
      }
      if (is(idx, "on")) {
        ++idx;
        condition more = parse_condition(idx, default_tables);
        if (!q.from_conds.empty()) q.from_conds.emplace_back(std::string("and"));
        for (cond_item& c : more) q.from_conds.push_back(std::move(c));
      }
      if (block) {
        expect(idx, ")");
        ++idx;
      }
      if (ends_clause(idx)) break;
    }
    return idx;
  }

  // parse_group_by
  void parse_group_by(std::size_t& idx, query& q, const std::vector<std::string>& default_tables) {
    if (!is(idx, "group")) return;
    ++idx;
    expect(idx, "by");
    ++idx;
    while (idx < toks_.size() && !ends_clause(idx)) {
      q.group_by.push_back(parse_col_unit(idx, default_tables));
      if (!is(idx, ",")) break;
      ++idx;
    }
  }

  // parse_order_by: the direction is that of the last item that names one.
  void parse_order_by(std::size_t& idx, query& q, const std::vector<std::string>& default_tables) {
    if (!is(idx, "order")) return;
    ++idx;
    expect(idx, "by");
    ++idx;
    order_clause o{"asc", {}};
    while (idx < toks_.size() && !ends_clause(idx)) {
      o.items.push_back(parse_val_unit(idx, default_tables));
      if (idx < toks_.size() && in(order_ops, toks_[idx])) o.direction = toks_[idx++];
      if (!is(idx, ",")) break;
      ++idx;
    }
    q.order_by = std::move(o);
  }

  std::span<const std::string> toks_;
  const alias_map& aliases_;
  const schema* schema_;
};

// get_tables_with_alias: every `X AS Y` makes Y an alias of X (column aliases too); with a schema,
// an alias may not be a table's name, and every table is its own alias.
alias_map tables_with_alias(const std::vector<std::string>& toks, const schema* s) {
  alias_map aliases;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (toks[i] != "as") continue;
    if (i + 1 >= toks.size()) throw parse_error("'as' at the end of the query");
    aliases[toks[i + 1]] = toks[i == 0 ? toks.size() - 1 : i - 1];
  }
  if (s != nullptr) {
    for (const auto& [table, columns] : s->tables()) {
      if (aliases.count(table) > 0) throw parse_error("Alias " + table + " has the same name in table");
      aliases[table] = table;
    }
  }
  return aliases;
}

}  // namespace

schema::schema(const table_list& tables) {
  for (const auto& entry : tables) {
    // A later table of the same name replaces the earlier one, as a Python dict does.
    const auto it =
        std::find_if(tables_.begin(), tables_.end(), [&](const auto& t) { return t.first == entry.first; });
    if (it != tables_.end())
      it->second = entry.second;
    else
      tables_.push_back(entry);
  }
  for (const auto& [name, columns] : tables_) {
    ids_.insert(name);
    for (const std::string& c : columns) ids_.insert(name + "." + c);
  }
}

const std::vector<std::string>* schema::columns_of(std::string_view table) const {
  for (const auto& [name, columns] : tables_) {
    if (name == table) return &columns;
  }
  return nullptr;
}

parse_result parse(std::string_view sql, const schema* s) {
  parse_result out;
  std::string error;
  const std::vector<std::string> toks = tokenize(sql, &error);
  if (!error.empty()) {
    out.error = error;
    return out;
  }
  try {
    const alias_map aliases = tables_with_alias(toks, s);
    parser p(toks, aliases, s);
    std::size_t idx = 0;
    out.sql = p.parse_sql(idx);
  } catch (const parse_error& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace sqlmorph::spider
