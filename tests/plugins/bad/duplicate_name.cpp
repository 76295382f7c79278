// A well-formed plugin whose row matcher reuses a name already registered by matchers_reference.
#include <sqlmorph/plugin.hpp>
#include <sqlmorph/row_matcher.hpp>

namespace {
class impostor final : public sqlmorph::row_matcher {
 public:
  explicit impostor(const sqlmorph::option_values&) {}
  bool accepts(sqlmorph::column_alignment::mode) const noexcept override { return true; }

 protected:
  sqlmorph::row_match do_match_(const sqlmorph::match_input&,
                                const sqlmorph::column_alignment&) const override {
    return {};
  }
};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY("duplicate_name", "1.0.0",
                        sqlmorph::plugin::component<impostor>("greedy_partial", "6.6.6", "an impostor"))
