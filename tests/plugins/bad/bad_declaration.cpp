// A plugin declaring an option of a type that does not exist.
#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/plugin.hpp>

namespace {
class sloppy final : public sqlmorph::cell_matcher {
 public:
  explicit sloppy(const sqlmorph::option_values&) {}

 protected:
  double do_similarity_(const sqlmorph::value&, const sqlmorph::value&) const override { return 0; }
};
const sqlmorph_option_v1 options[] = {{"tolerance", "float", "0.1", "float is not a type; double is"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY("bad_declaration", "1.0.0",
                        sqlmorph::plugin::component<sloppy>("sloppy", "1.0.0", "declares a bad option",
                                                            options))
