// The official evaluator's rebuild before exact set match: rebuild_sql_val (condition values
// dropped), build_valid_col_units and rebuild_sql_col (columns mapped to their foreign-key
// representative, DISTINCT dropped). Their reach is reproduced as it is: odd places of a condition
// list are left alone, subqueries in FROM are not rebuilt at all, subqueries used as condition values
// lose their values but keep their columns and DISTINCT, and INTERSECT/UNION/EXCEPT parts are
// rebuilt with the FROM tables of the outer query.

#include <set>
#include <stdexcept>

#include "sqlmorph/spider_exact_match.hpp"

namespace sqlmorph::spider {

namespace {

using column_set = std::set<std::string, std::less<>>;

// The items a condition's [::2] slice sees must be conditions: the official code unpacks them.
cond_unit& cond_at(condition& c, std::size_t i) {
  auto* unit = std::get_if<cond_unit>(&c[i]);
  if (unit == nullptr)
    throw std::invalid_argument("the condition has '" + std::get<std::string>(c[i]) +
                                "' where a condition belongs (the official evaluator raises here)");
  return *unit;
}

void rebuild_val(query& q);

void rebuild_value_val(value& v) {
  if (auto* sub = std::get_if<deep_ptr<query>>(&v); sub != nullptr && *sub) {
    rebuild_val(**sub);
  } else {
    v = std::monostate{};
  }
}

void rebuild_condition_val(condition& c) {
  for (std::size_t i = 0; i < c.size(); i += 2) {
    cond_unit& unit = cond_at(c, i);
    rebuild_value_val(unit.first);
    rebuild_value_val(unit.second);
  }
}

void rebuild_val(query& q) {
  rebuild_condition_val(q.from_conds);
  rebuild_condition_val(q.having);
  rebuild_condition_val(q.where);
  if (q.intersect) rebuild_val(*q.intersect);
  if (q.except) rebuild_val(*q.except);
  if (q.union_) rebuild_val(*q.union_);
}

struct column_rebuilder {
  const column_set& valid;
  const foreign_key_map& keys;

  void col(col_unit& c) const {
    if (valid.count(c.column) > 0) {
      if (const auto it = keys.find(c.column); it != keys.end()) c.column = it->second;
    }
    c.distinct.reset();
  }
  void val(val_unit& v) const {
    col(v.first);
    if (v.second) col(*v.second);
  }
  void cond(condition& c) const {
    for (std::size_t i = 0; i < c.size(); i += 2) val(cond_at(c, i).left);
  }
  void sql(query& q) const {
    for (auto& item : q.select.items) val(item.second);
    q.select.distinct.reset();
    cond(q.from_conds);
    cond(q.where);
    for (col_unit& c : q.group_by) col(c);
    if (q.order_by) {
      for (val_unit& v : q.order_by->items) val(v);
    }
    cond(q.having);
    if (q.intersect) sql(*q.intersect);
    if (q.except) sql(*q.except);
    if (q.union_) sql(*q.union_);
  }
};

// build_valid_col_units: every schema column (`__table.column__`) whose text up to the first '.'
// is the prefix of a table named in FROM.
column_set valid_col_units(const query& q, const schema& s) {
  std::set<std::string, std::less<>> prefixes;
  for (const table_unit& t : q.from_tables) {
    if (!t.subquery && t.table.size() >= 2) prefixes.insert(t.table.substr(0, t.table.size() - 2));
  }
  column_set out;
  for (const auto& [table, columns] : s.tables()) {
    for (const std::string& c : columns) {
      std::string id = "__" + table + "." + c + "__";
      if (prefixes.count(std::string_view(id).substr(0, id.find('.'))) > 0) out.insert(std::move(id));
    }
  }
  return out;
}

}  // namespace

void rebuild_for_match(query& q, const database_schema& db) {
  const column_set valid = valid_col_units(q, db.tables);
  rebuild_val(q);
  column_rebuilder{valid, db.foreign_keys}.sql(q);
}

}  // namespace sqlmorph::spider
