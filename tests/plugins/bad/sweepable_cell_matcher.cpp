// A plugin marking an option of a cell matcher sweepable: only a scorer's option can be.
#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/plugin.hpp>

namespace {
class swept final : public sqlmorph::cell_matcher {
 public:
  explicit swept(const sqlmorph::option_values&) {}

 protected:
  double do_similarity_(const sqlmorph::value&, const sqlmorph::value&) const override { return 0; }
};
const sqlmorph_option_v1 options[] = {
    {"strict", "bool", "true", "not a scorer's", SQLMORPH_OPTION_SWEEPABLE}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY("sweepable_cell_matcher", "1.0.0",
                        sqlmorph::plugin::component<swept>("swept", "1.0.0", "declares a misplaced sweep",
                                                           options))
