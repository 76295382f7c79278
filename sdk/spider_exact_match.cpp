// Evaluator.eval_exact_match and eval_partial_match of the official Spider evaluator on rebuilt
// queries, and the per-example score of its `--etype match` loop. Lists are compared as the Python
// code compares them: matched items removed one at a time (multisets), sets where it builds sets.

#include "sqlmorph/spider_exact_match.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace sqlmorph::spider {

namespace {

// get_scores
partial_score scores_of(int count, int pred_total, int label_total) {
  partial_score s;
  s.label_total = label_total;
  s.pred_total = pred_total;
  if (pred_total == label_total && count == pred_total) s.acc = s.rec = s.f1 = 1;
  return s;
}

// `if x in items: items.remove(x)`, counting the hits.
template <class T>
int count_removed(const std::vector<T>& pred, std::vector<T> label) {
  int count = 0;
  for (const T& x : pred) {
    const auto it = std::find(label.begin(), label.end(), x);
    if (it == label.end()) continue;
    ++count;
    label.erase(it);
  }
  return count;
}

// cond[::2] and cond[1::2]
std::vector<cond_item> slice(const condition& c, std::size_t start) {
  std::vector<cond_item> out;
  for (std::size_t i = start; i < c.size(); i += 2) out.push_back(c[i]);
  return out;
}

std::vector<cond_unit> units(const condition& c) {
  std::vector<cond_unit> out;
  for (std::size_t i = 0; i < c.size(); i += 2) {
    const auto* u = std::get_if<cond_unit>(&c[i]);
    if (u == nullptr) throw std::invalid_argument("a connector where a condition belongs");
    out.push_back(*u);
  }
  return out;
}

// Python's set(items): equal items kept once.
std::vector<cond_item> as_set(std::vector<cond_item> items) {
  std::vector<cond_item> out;
  for (cond_item& x : items) {
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(std::move(x));
  }
  return out;
}

bool same_set(const std::vector<cond_item>& a, const std::vector<cond_item>& b) {
  if (a.size() != b.size()) return false;
  return std::all_of(a.begin(), a.end(),
                     [&](const cond_item& x) { return std::find(b.begin(), b.end(), x) != b.end(); });
}

bool is_connector(const cond_item& item, const char* word) {
  const auto* s = std::get_if<std::string>(&item);
  return s != nullptr && *s == word;
}

// get_keywords
std::set<std::string> keywords(const query& q) {
  std::set<std::string> out;
  if (!q.where.empty()) out.insert("where");
  if (!q.group_by.empty()) out.insert("group");
  if (!q.having.empty()) out.insert("having");
  if (q.order_by) {
    out.insert(q.order_by->direction);
    out.insert("order");
  }
  if (q.limit) out.insert("limit");
  if (q.except) out.insert("except");
  if (q.union_) out.insert("union");
  if (q.intersect) out.insert("intersect");
  for (const condition* c : {&q.from_conds, &q.where, &q.having}) {
    for (const cond_item& item : slice(*c, 1)) {
      if (is_connector(item, "or")) out.insert("or");
    }
    for (const cond_unit& u : units(*c)) {
      if (u.negated) out.insert("not");
      if (u.op == op_in) out.insert("in");
      if (u.op == op_like) out.insert("like");
    }
  }
  return out;
}

// The part of a column id after its first '.' and before the next (`pred.split(".")[1]`).
std::string group_key(const std::string& id) {
  const auto dot = id.find('.');
  if (dot == std::string::npos) return id;
  const auto next = id.find('.', dot + 1);
  return id.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1);
}

std::vector<std::string> group_columns(const query& q) {
  std::vector<std::string> out;
  for (const col_unit& c : q.group_by) out.push_back(c.column);
  return out;
}

bool exact(const query& pred, const query& label, std::array<partial_score, partial_clauses.size()>& partial);

// eval_nested for one of intersect / except / union: (label_total, pred_total, count).
void nested(const deep_ptr<query>& pred, const deep_ptr<query>& label, int& lt, int& pt, int& cnt) {
  if (pred) ++pt;
  if (label) ++lt;
  if (pred && label) {
    std::array<partial_score, partial_clauses.size()> ignored{};
    if (exact(*pred, *label, ignored)) ++cnt;
  }
}

std::array<partial_score, partial_clauses.size()> partial_match(const query& pred, const query& label) {
  std::array<partial_score, partial_clauses.size()> res{};
  {  // eval_sel
    const auto& ps = pred.select.items;
    const auto& ls = label.select.items;
    std::vector<val_unit> pv;
    std::vector<val_unit> lv;
    for (const auto& item : ps) pv.push_back(item.second);
    for (const auto& item : ls) lv.push_back(item.second);
    const int pt = static_cast<int>(ps.size());
    const int lt = static_cast<int>(ls.size());
    res[0] = scores_of(count_removed(ps, ls), pt, lt);
    res[1] = scores_of(count_removed(pv, lv), pt, lt);
  }
  {  // eval_where
    const std::vector<cond_unit> pc = units(pred.where);
    const std::vector<cond_unit> lc = units(label.where);
    std::vector<val_unit> pv;
    std::vector<val_unit> lv;
    for (const cond_unit& u : pc) pv.push_back(u.left);
    for (const cond_unit& u : lc) lv.push_back(u.left);
    const int pt = static_cast<int>(pc.size());
    const int lt = static_cast<int>(lc.size());
    res[2] = scores_of(count_removed(pc, lc), pt, lt);
    res[3] = scores_of(count_removed(pv, lv), pt, lt);
  }
  const std::vector<std::string> pg = group_columns(pred);
  const std::vector<std::string> lg = group_columns(label);
  {  // eval_group: columns compared without their table
    std::vector<std::string> pk;
    std::vector<std::string> lk;
    for (const std::string& c : pg) pk.push_back(group_key(c));
    for (const std::string& c : lg) lk.push_back(group_key(c));
    res[4] = scores_of(count_removed(pk, lk), static_cast<int>(pg.size()), static_cast<int>(lg.size()));
  }
  {  // eval_having
    const int pt = pg.empty() ? 0 : 1;
    const int lt = lg.empty() ? 0 : 1;
    const int cnt = pt == 1 && lt == 1 && pg == lg && pred.having == label.having ? 1 : 0;
    res[5] = scores_of(cnt, pt, lt);
  }
  {  // eval_order: the LIMIT only has to be there on both sides or on neither
    const int pt = pred.order_by ? 1 : 0;
    const int lt = label.order_by ? 1 : 0;
    const int cnt = label.order_by && pred.order_by == label.order_by &&
                    pred.limit.has_value() == label.limit.has_value();
    res[6] = scores_of(cnt, pt, lt);
  }
  {  // eval_and_or: on unequal sets it returns (len(pred), len(label), 0) as (label_total, pred_total, cnt)
    const std::vector<cond_item> pa = as_set(slice(pred.where, 1));
    const std::vector<cond_item> la = as_set(slice(label.where, 1));
    if (same_set(pa, la))
      res[7] = scores_of(1, 1, 1);
    else
      res[7] = scores_of(0, static_cast<int>(la.size()), static_cast<int>(pa.size()));
  }
  {  // eval_IUEN
    int lt = 0;
    int pt = 0;
    int cnt = 0;
    nested(pred.intersect, label.intersect, lt, pt, cnt);
    nested(pred.except, label.except, lt, pt, cnt);
    nested(pred.union_, label.union_, lt, pt, cnt);
    res[8] = scores_of(cnt, pt, lt);
  }
  {  // eval_keywords
    const std::set<std::string> pk = keywords(pred);
    const std::set<std::string> lk = keywords(label);
    int cnt = 0;
    for (const std::string& k : pk) cnt += static_cast<int>(lk.count(k));
    res[9] = scores_of(cnt, static_cast<int>(pk.size()), static_cast<int>(lk.size()));
  }
  return res;
}

// Evaluator.eval_exact_match: every partial f1 is 1, and the FROM tables are the same multiset
// (the official code compares the sorted lists) when the gold names any.
bool exact(const query& pred, const query& label,
           std::array<partial_score, partial_clauses.size()>& partial) {
  partial = partial_match(pred, label);
  for (const partial_score& s : partial) {
    if (s.f1 != 1) return false;
  }
  if (label.from_tables.empty()) return true;
  return label.from_tables.size() == pred.from_tables.size() &&
         count_removed(pred.from_tables, label.from_tables) == static_cast<int>(label.from_tables.size());
}

}  // namespace

exact_match_scores eval_exact_match(const query& pred, const query& gold) {
  exact_match_scores out;
  out.exact = exact(pred, gold, out.partial);
  return out;
}

exact_match_outcome score_exact_match(std::string_view gold, std::string_view pred,
                                      const database_schema& db) {
  exact_match_outcome out;
  parse_result g = parse(gold, &db.tables);
  if (!g.sql) {
    out.gold_error = "the gold SQL does not parse as the official evaluator parses it: " + g.error;
    return out;
  }
  out.hardness = hardness(*g.sql);
  std::string replaced(pred);
  for (std::size_t at = replaced.find("value"); at != std::string::npos; at = replaced.find("value", at + 1))
    replaced.replace(at, 5, "1");
  parse_result p = parse(replaced, &db.tables);
  query predicted = p.sql ? std::move(*p.sql) : query{};
  out.pred_parsed = p.sql.has_value();
  out.pred_error = std::move(p.error);
  try {
    rebuild_for_match(*g.sql, db);
  } catch (const std::invalid_argument& e) {
    out.gold_error = std::string("gold SQL: ") + e.what();
    return out;
  }
  try {
    rebuild_for_match(predicted, db);
  } catch (const std::invalid_argument& e) {
    // The official evaluator raises outside its try block here; sqlmorph scores the empty SQL.
    out.pred_parsed = false;
    out.pred_error = e.what();
    predicted = query{};
    rebuild_for_match(predicted, db);
  }
  try {
    out.scores = eval_exact_match(predicted, *g.sql);
  } catch (const std::invalid_argument& e) {
    out.gold_error = std::string("exact match: ") + e.what();
  }
  return out;
}

}  // namespace sqlmorph::spider
