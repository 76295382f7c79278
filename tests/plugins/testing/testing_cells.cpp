// Components used by the tests to exercise custom components end to end: cell matchers (an
// equivalence, case-insensitive text, and a similarity, numeric tolerance) and a scorer whose
// sweepable option is not SQLMorph's `penalize_extra_pred_cols`.

#include <cctype>
#include <cmath>
#include <stdexcept>

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/hash.hpp>
#include <sqlmorph/plugin.hpp>
#include <sqlmorph/scorer.hpp>

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class case_insensitive final : public sqlmorph::cell_matcher {
 public:
  explicit case_insensitive(const sqlmorph::option_values&) {}
  bool is_equivalence() const noexcept override { return true; }
  std::uint64_t equivalence_hash(const sqlmorph::value& v) const noexcept override {
    if (v.kind() == sqlmorph::value_kind::text) return sqlmorph::hash_bytes(lower(v.bytes()), 7);
    return sqlmorph::reference_hash(v);
  }

 protected:
  double do_similarity_(const sqlmorph::value& g, const sqlmorph::value& p) const override {
    if (g.kind() == sqlmorph::value_kind::text && p.kind() == sqlmorph::value_kind::text) {
      return lower(g.bytes()) == lower(p.bytes()) ? 1.0 : 0.0;
    }
    return sqlmorph::reference_equal(g, p) ? 1.0 : 0.0;
  }
};

class numeric_tolerance final : public sqlmorph::cell_matcher {
 public:
  explicit numeric_tolerance(const sqlmorph::option_values& o) : tolerance_(o.get_double("tolerance")) {
    if (tolerance_ < 0) throw std::invalid_argument("tolerance must be >= 0");
  }

 protected:
  double do_similarity_(const sqlmorph::value& g, const sqlmorph::value& p) const override {
    if (g.is_number() && p.is_number())
      return std::fabs(g.as_double() - p.as_double()) <= tolerance_ ? 1.0 : 0.0;
    return sqlmorph::reference_equal(g, p) ? 1.0 : 0.0;
  }

 private:
  double tolerance_;
};

const sqlmorph_option_v1 tolerance_options[] = {
    {"tolerance", "double", "0.01", "largest difference still equal"}};

// EX = 1 when every gold cell is matched; `lenient` also accepts half of them.
class half_credit final : public sqlmorph::scorer {
 public:
  explicit half_credit(const sqlmorph::option_values& o) : lenient_(o.get_bool("lenient")) {}
  sqlmorph::metric_set metrics() const noexcept override { return {}; }

 protected:
  sqlmorph::scores do_score_(const sqlmorph::match_input&, const sqlmorph::column_alignment&,
                             const sqlmorph::row_match& rows) const override {
    const double needed = lenient_ ? rows.counts.gold_cells / 2 : rows.counts.gold_cells;
    const double matched = rows.counts.matched;
    sqlmorph::scores s;
    s.ex = matched >= needed ? 1.0 : 0.0;
    return s;
  }

 private:
  bool lenient_;
};

const sqlmorph_option_v1 half_credit_options[] = {
    {"lenient", "bool", "false", "accept half of the gold cells", SQLMORPH_OPTION_SWEEPABLE}};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "cells_testing", "1.0.0",
    sqlmorph::plugin::component<case_insensitive>("case_insensitive", "1.0.0",
                                                  "text equal ignoring ASCII case"),
    sqlmorph::plugin::component<numeric_tolerance>("numeric_tolerance", "1.0.0",
                                                   "numbers equal within a tolerance", tolerance_options),
    sqlmorph::plugin::component<half_credit>("half_credit", "1.0.0",
                                             "EX when all (or, lenient, half) gold cells match",
                                             half_credit_options))
