// Cell matchers used by the tests to exercise custom components end to end: an equivalence
// (case-insensitive text) and a similarity (numeric tolerance), plus one that fails on creation.

#include <cctype>
#include <cmath>
#include <stdexcept>

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/hash.hpp>
#include <sqlmorph/plugin.hpp>

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

}  // namespace

SQLMORPH_PLUGIN_LIBRARY("cells_testing", "1.0.0",
                        sqlmorph::plugin::component<case_insensitive>("case_insensitive", "1.0.0",
                                                                      "text equal ignoring ASCII case"),
                        sqlmorph::plugin::component<numeric_tolerance>("numeric_tolerance", "1.0.0",
                                                                       "numbers equal within a tolerance",
                                                                       tolerance_options))
