// An example plugin: a column matcher that pairs columns whose names are equal once case and
// surrounding spaces are ignored ("Name" ~ " name "). It is a complete plugin: build it with the
// three-line CMakeLists.txt next to it, put the .so in a plugin folder, and use it in a technique.
// docs/plugin-authoring.md walks through it.

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

#include <sqlmorph/column_matcher.hpp>
#include <sqlmorph/plugin.hpp>

namespace {

class folded_names final : public sqlmorph::column_matcher {
 public:
  // Options arrive validated, with defaults filled in.
  explicit folded_names(const sqlmorph::option_values& options) : trim_(options.get_bool("trim")) {}

  // Every alignment this matcher returns pairs columns; a technique checks its row matcher accepts that.
  sqlmorph::column_alignment::mode produces() const noexcept override {
    return sqlmorph::column_alignment::mode::paired;
  }

 protected:
  // Called concurrently by several workers: no mutable state.
  sqlmorph::column_alignment do_align_(const sqlmorph::match_input& in) const override {
    std::map<std::string, std::size_t> gold;  // folded name -> last position, like exact_names
    for (std::size_t i = 0; i < in.gold.column_count(); ++i) gold[fold(in.gold.column_names()[i])] = i;
    std::map<std::string, std::size_t> pred;
    for (std::size_t i = 0; i < in.pred.column_count(); ++i) pred[fold(in.pred.column_names()[i])] = i;
    sqlmorph::column_alignment out;
    for (const auto& [name, g] : gold) {
      if (auto it = pred.find(name); it != pred.end()) out.pairs.push_back({g, it->second, 1.0});
    }
    return out;
  }

 private:
  std::string fold(std::string name) const {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (trim_) {
      const auto b = name.find_first_not_of(' ');
      const auto e = name.find_last_not_of(' ');
      name = b == std::string::npos ? std::string() : name.substr(b, e - b + 1);
    }
    return name;
  }

  bool trim_;
};

// Declared options: name, type, default (as text), description. `sqlmorph plugins` prints them and
// the host refuses unknown names or wrong types before the component is created.
const sqlmorph_option_v1 folded_names_options[] = {
    {"trim", "bool", "true", "also ignore spaces around names"},
};

}  // namespace

// The library's manifest: name, version, then one entry per component.
SQLMORPH_PLUGIN_LIBRARY("columns_folded", "1.0.0",
                        sqlmorph::plugin::component<folded_names>(
                            "folded_names", "1.0.0", "columns whose names are equal ignoring case",
                            folded_names_options))
