// eval_hardness of the official evaluator: count_component1, count_component2, count_others and the
// thresholds, over the parse tree as process_sql builds it — with its quirks: count_agg reads a
// condition's `not` flag as an aggregation in WHERE and HAVING, and counts every "and"/"or" of
// HAVING as one.

#include "sqlmorph/spider_sql.hpp"

namespace sqlmorph::spider {
namespace {

struct python_crash {};

const cond_unit* cond_at(const condition& c, std::size_t i) {
  return std::get_if<cond_unit>(&c[i]);
}
bool is_connector(const condition& c, std::size_t i, const char* which) {
  const auto* s = std::get_if<std::string>(&c[i]);
  return s != nullptr && *s == which;
}

int count_component1(const query& q) {
  int count = 0;
  count += !q.where.empty();
  count += !q.group_by.empty();
  count += q.order_by.has_value();
  count += q.limit.has_value();
  if (!q.from_tables.empty()) count += static_cast<int>(q.from_tables.size()) - 1;
  for (const condition* c : {&q.from_conds, &q.where, &q.having}) {
    for (std::size_t i = 1; i < c->size(); i += 2) count += is_connector(*c, i, "or");  // conds[1::2]
    for (std::size_t i = 0; i < c->size(); i += 2) {                                    // conds[::2]
      const cond_unit* u = cond_at(*c, i);
      count += u != nullptr && u->op == op_like;
    }
  }
  return count;
}

// len(get_nestedSQL(sql)); a connector where a condition belongs makes Python raise.
int count_component2(const query& q) {
  int count = 0;
  for (const condition* c : {&q.from_conds, &q.where, &q.having}) {
    for (std::size_t i = 0; i < c->size(); i += 2) {
      const cond_unit* u = cond_at(*c, i);
      if (u == nullptr) throw python_crash{};  // 'and'[3] raises IndexError
      count += std::holds_alternative<deep_ptr<query>>(u->first);
      count += std::holds_alternative<deep_ptr<query>>(u->second);
    }
  }
  count += static_cast<bool>(q.intersect) + static_cast<bool>(q.except) + static_cast<bool>(q.union_);
  return count;
}

int count_others(const query& q) {
  int aggs = 0;
  for (const auto& [agg, unit] : q.select.items) aggs += agg != 0;
  // has_agg(unit) is unit[0] != 0: a condition's not_op, and a connector's first letter.
  for (std::size_t i = 0; i < q.where.size(); i += 2) {
    const cond_unit* u = cond_at(q.where, i);
    aggs += u == nullptr || u->negated;
  }
  for (const col_unit& c : q.group_by) aggs += c.agg != 0;
  if (q.order_by) {
    for (const val_unit& v : q.order_by->items) aggs += v.first.agg != 0;
    for (const val_unit& v : q.order_by->items) aggs += v.second && v.second->agg != 0;
  }
  for (std::size_t i = 0; i < q.having.size(); ++i) {
    const cond_unit* u = cond_at(q.having, i);
    aggs += u == nullptr || u->negated;
  }
  int count = 0;
  count += aggs > 1;
  count += q.select.items.size() > 1;
  count += q.where.size() > 1;
  count += q.group_by.size() > 1;
  return count;
}

}  // namespace

std::string hardness(const query& q) {
  try {
    const int c1 = count_component1(q);
    const int c2 = count_component2(q);
    const int others = count_others(q);
    if (c1 <= 1 && others == 0 && c2 == 0) return "easy";
    if ((others <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && others < 2 && c2 == 0)) return "medium";
    if ((others > 2 && c1 <= 2 && c2 == 0) || (c1 > 2 && c1 <= 3 && others <= 2 && c2 == 0) ||
        (c1 <= 1 && others == 0 && c2 <= 1)) {
      return "hard";
    }
    return "extra";
  } catch (const python_crash&) {
    return {};
  }
}

}  // namespace sqlmorph::spider
