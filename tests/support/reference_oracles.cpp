#include "reference_oracles.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace sqlmorph::oracle {
namespace {

using row = std::vector<value>;

std::vector<row> rows_of(const result& r) {
  std::vector<row> out;
  for (std::size_t i = 0; i < r.row_count(); ++i) out.emplace_back(r.row(i).begin(), r.row(i).end());
  return out;
}

bool same(const row& a, const row& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!reference_equal(a[i], b[i])) return false;
  }
  return true;
}

bool contains(const std::vector<row>& rows, const row& r) {
  return std::any_of(rows.begin(), rows.end(), [&](const row& x) { return same(x, r); });
}

// set(gold) == set(pred)
bool set_equal(const std::vector<row>& g, const std::vector<row>& p) {
  for (const row& r : g) {
    if (!contains(p, r)) return false;
  }
  for (const row& r : p) {
    if (!contains(g, r)) return false;
  }
  return true;
}

void finish(double matched, double g_cells, double p_cells, scores& s) {
  if (g_cells == 0 && p_cells == 0) {
    s.exp = s.exr = s.f1 = 1.0;
    return;
  }
  if (g_cells == 0) {
    s.exp = 0.0;
    s.exr = 1.0;
    s.f1 = 0.0;
    return;
  }
  if (p_cells == 0) {
    s.exp = 1.0;
    s.exr = 0.0;
    s.f1 = 0.0;
    return;
  }
  const double precision = matched / p_cells;
  const double recall = matched / g_cells;
  s.exp = precision;
  s.exr = recall;
  s.f1 = (precision + recall) == 0 ? 0.0 : 2 * precision * recall / (precision + recall);
}

scores all_ones() {
  scores s;
  s.ex = s.exp = s.exr = s.f1 = 1.0;
  return s;
}

}  // namespace

scores sqlmorph_exact_column(const result& gold, const result& pred, bool partial, bool penalize) {
  const auto g = rows_of(gold);
  const auto p = rows_of(pred);
  if (set_equal(g, p)) return all_ones();
  scores s;
  s.ex = 0.0;
  std::map<std::string, std::size_t> gi;
  std::map<std::string, std::size_t> pi;
  for (std::size_t i = 0; i < gold.column_count(); ++i) gi[gold.column_names()[i]] = i;
  for (std::size_t i = 0; i < pred.column_count(); ++i) pi[pred.column_names()[i]] = i;
  std::vector<std::pair<std::size_t, std::size_t>> common;
  for (const auto& [name, i] : gi) {
    if (pi.count(name)) common.push_back({i, pi[name]});
  }
  if (common.empty()) {
    s.exp = s.exr = s.f1 = 0.0;
    return s;
  }
  const std::size_t k = common.size();
  std::vector<row> gp;
  std::vector<row> pp;
  for (const row& r : g) {
    row x;
    for (auto [a, b] : common) x.push_back(r[a]);
    gp.push_back(x);
  }
  for (const row& r : p) {
    row x;
    for (auto [a, b] : common) x.push_back(r[b]);
    pp.push_back(x);
  }
  // Distinct tuples in first-appearance order with their counts.
  const auto tally = [](const std::vector<row>& rows) {
    std::vector<std::pair<row, int>> t;
    for (const row& r : rows) {
      auto it = std::find_if(t.begin(), t.end(), [&](const auto& e) { return same(e.first, r); });
      if (it == t.end())
        t.push_back({r, 1});
      else
        ++it->second;
    }
    return t;
  };
  const auto gt = tally(gp);
  const auto pt = tally(pp);
  const auto count_in = [](const std::vector<std::pair<row, int>>& t, const row& r) {
    for (const auto& e : t) {
      if (same(e.first, r)) return e.second;
    }
    return 0;
  };
  long long exact = 0;
  for (const auto& [r, c] : gt) exact += std::min(c, count_in(pt, r));
  double matched = static_cast<double>(static_cast<long long>(k) * exact);
  if (partial) {
    std::vector<row> G;
    std::vector<row> P;
    for (const auto& [r, c] : gt) {
      for (int i = 0; i < c - std::min(c, count_in(pt, r)); ++i) G.push_back(r);
    }
    for (const auto& [r, c] : pt) {
      for (int i = 0; i < c - std::min(c, count_in(gt, r)); ++i) P.push_back(r);
    }
    while (!G.empty() && !P.empty()) {
      double best = 0;
      std::size_t bi = 0;
      std::size_t bj = 0;
      for (std::size_t i = 0; i < G.size(); ++i) {
        for (std::size_t j = 0; j < P.size(); ++j) {
          std::size_t eq = 0;
          for (std::size_t c = 0; c < k; ++c) eq += reference_equal(G[i][c], P[j][c]) ? 1 : 0;
          const double sim = static_cast<double>(eq) / static_cast<double>(k);
          if (sim > best) {
            best = sim;
            bi = i;
            bj = j;
          }
        }
      }
      if (best == 0) break;
      matched += best * static_cast<double>(k);
      G.erase(G.begin() + static_cast<long>(bi));
      P.erase(P.begin() + static_cast<long>(bj));
    }
  }
  const double g_cells = static_cast<double>(gold.row_count() * gold.column_count());
  const double p_cells = static_cast<double>(pred.row_count() * (penalize ? pred.column_count() : k));
  finish(matched, g_cells, p_cells, s);
  return s;
}

scores sqlmorph_no_column(const result& gold, const result& pred, bool penalize) {
  const auto g = rows_of(gold);
  const auto p = rows_of(pred);
  if (set_equal(g, p)) return all_ones();
  scores s;
  s.ex = 0.0;
  const auto as_set = [](const row& r) {
    std::set<std::string> out;
    for (const value& v : r) out.insert(python_str(v));
    return out;
  };
  std::vector<std::set<std::string>> G;
  std::vector<std::set<std::string>> P;
  for (const row& r : g) G.push_back(as_set(r));
  for (const row& r : p) P.push_back(as_set(r));
  double g_cells = 0;
  double p_cells = 0;
  for (const auto& x : G) g_cells += static_cast<double>(x.size());
  for (const auto& x : P) p_cells += static_cast<double>(x.size());
  std::vector<bool> gu(G.size(), false);
  std::vector<bool> pu(P.size(), false);
  double credit = 0;
  for (std::size_t i = 0; i < G.size(); ++i) {
    for (std::size_t j = 0; j < P.size(); ++j) {
      if (!pu[j] && G[i] == P[j]) {
        gu[i] = pu[j] = true;
        credit += static_cast<double>(G[i].size());
        break;
      }
    }
  }
  std::vector<std::set<std::string>> GL;
  std::vector<std::set<std::string>> PL;
  for (std::size_t i = 0; i < G.size(); ++i) {
    if (!gu[i]) GL.push_back(G[i]);
  }
  for (std::size_t j = 0; j < P.size(); ++j) {
    if (!pu[j]) PL.push_back(P[j]);
  }
  while (!GL.empty() && !PL.empty()) {
    double best = 0;
    std::size_t bi = 0;
    std::size_t bj = 0;
    std::size_t best_inter = 0;
    for (std::size_t i = 0; i < GL.size(); ++i) {
      for (std::size_t j = 0; j < PL.size(); ++j) {
        std::vector<std::string> inter;
        std::set_intersection(GL[i].begin(), GL[i].end(), PL[j].begin(), PL[j].end(),
                              std::back_inserter(inter));
        const std::size_t uni = GL[i].size() + PL[j].size() - inter.size();
        const double jac = static_cast<double>(inter.size()) / static_cast<double>(uni);
        if (jac > best) {
          best = jac;
          bi = i;
          bj = j;
          best_inter = inter.size();
        }
      }
    }
    if (best == 0) break;
    credit += static_cast<double>(best_inter);
    GL.erase(GL.begin() + static_cast<long>(bi));
    PL.erase(PL.begin() + static_cast<long>(bj));
  }
  finish(credit, g_cells, penalize ? p_cells : credit, s);
  return s;
}

bool spider_result_eq(const result& gold, const result& pred, bool order_matters) {
  const auto g = rows_of(gold);
  const auto p = rows_of(pred);
  if (g.empty() && p.empty()) return true;
  if (g.size() != p.size()) return false;
  const std::size_t cols = g[0].size();
  if (p[0].size() != cols) return false;
  // quick_rej
  const auto unorder = [](const row& r) {
    std::vector<std::pair<std::string, value>> keyed;
    for (const value& v : r) keyed.push_back({python_str(v) + std::string(python_type_name(v.kind())), v});
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    row out;
    for (const auto& k : keyed) out.push_back(k.second);
    return out;
  };
  std::vector<row> s1;
  std::vector<row> s2;
  for (const row& r : g) s1.push_back(unorder(r));
  for (const row& r : p) s2.push_back(unorder(r));
  if (order_matters) {
    for (std::size_t i = 0; i < s1.size(); ++i) {
      if (!same(s1[i], s2[i])) return false;
    }
  } else if (!set_equal(s1, s2)) {
    return false;
  }
  std::vector<std::size_t> perm(cols);
  std::iota(perm.begin(), perm.end(), 0);
  do {
    std::vector<row> p2;
    for (const row& r : p) {
      row x;
      for (std::size_t c = 0; c < cols; ++c) x.push_back(r[perm[c]]);
      p2.push_back(x);
    }
    if (order_matters) {
      bool all = true;
      for (std::size_t i = 0; i < g.size() && all; ++i) all = same(g[i], p2[i]);
      if (all) return true;
    } else {
      // multiset equality
      std::vector<bool> used(p2.size(), false);
      bool all = true;
      for (const row& r : g) {
        bool found = false;
        for (std::size_t j = 0; j < p2.size() && !found; ++j) {
          if (!used[j] && same(r, p2[j])) used[j] = found = true;
        }
        all = all && found;
      }
      if (all) return true;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return false;
}

}  // namespace sqlmorph::oracle
