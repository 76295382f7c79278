// A plugin marking an int option of a scorer sweepable: a run sweeps a bool (true and false).
#include <sqlmorph/plugin.hpp>
#include <sqlmorph/scorer.hpp>

namespace {
class counted final : public sqlmorph::scorer {
 public:
  explicit counted(const sqlmorph::option_values&) {}
  sqlmorph::metric_set metrics() const noexcept override { return {}; }

 protected:
  sqlmorph::scores do_score_(const sqlmorph::match_input&, const sqlmorph::column_alignment&,
                             const sqlmorph::row_match&) const override {
    return {};
  }
};
const sqlmorph_option_v1 options[] = {{"rounds", "int", "3", "not a bool", SQLMORPH_OPTION_SWEEPABLE}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY("sweepable_int", "1.0.0",
                        sqlmorph::plugin::component<counted>("counted", "1.0.0", "declares a sweep of an int",
                                                             options))
