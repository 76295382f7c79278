// Plugin loading: manifests checked before use, clear refusals, one registry per kind, duplicate
// names refused, options validated against declarations.

#include <doctest/doctest.h>

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/row_matcher.hpp>

#include "errors.hpp"
#include "plugins/component_registry.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {
std::string reason_for(core::component_registry& reg, const std::filesystem::path& file) {
  REQUIRE_FALSE(reg.load_file(file));
  REQUIRE(!reg.refusals().empty());
  CHECK(reg.refusals().back().file == file);
  return reg.refusals().back().reason;
}
std::filesystem::path bad(const char* name) {
  return test::bad_plugin_dir() / (std::string("sqlmorph_bad_") + name + ".so");
}

}  // namespace

TEST_CASE("the project's plugin libraries load and register their components by kind") {
  const core::component_registry& reg = test::registry();
  CHECK(reg.refusals().empty());
  CHECK(reg.find("backend", "sqlite") != nullptr);
  CHECK(reg.find("row_matcher", "greedy_partial") != nullptr);
  CHECK(reg.find("column_matcher", "greedy_partial") == nullptr);  // registries are per kind
  const core::component_info* info = reg.find("scorer", "sqlmorph_cells");
  REQUIRE(info != nullptr);
  CHECK(info->library == "matchers_reference");
  REQUIRE(info->find_option("penalize_extra_pred_cols") != nullptr);
  CHECK(info->find_option("penalize_extra_pred_cols")->default_value == std::optional<std::string>("true"));
}

TEST_CASE("a plugin for another ABI version is refused, naming the file and both versions") {
  core::component_registry reg;
  const std::string reason = reason_for(reg, bad("wrong_abi"));
  CHECK(reason.find("plugin ABI version 999") != std::string::npos);
  CHECK(reason.find("expects ABI version " + std::to_string(SQLMORPH_PLUGIN_ABI_VERSION)) !=
        std::string::npos);
  CHECK(reg.list().empty());
}

TEST_CASE("a library without the entry point is refused as not a plugin") {
  core::component_registry reg;
  const std::string reason = reason_for(reg, bad("no_entry_point"));
  CHECK(reason.find("missing symbol 'sqlmorph_plugin_manifest_v1'") != std::string::npos);
}

TEST_CASE("a plugin from another build is refused, quoting both fingerprints") {
  core::component_registry reg;
  const std::string reason = reason_for(reg, bad("wrong_fingerprint"));
  CHECK(reason.find("was built as 'sqlmorph 0.0.1; abi 1; sdk 0000; compiler 4.2; libstdc++ 1'") !=
        std::string::npos);
  CHECK(reason.find(SQLMORPH_BUILD_FINGERPRINT) != std::string::npos);
}

TEST_CASE("a component declaring an unknown option type is refused") {
  core::component_registry reg;
  CHECK(reason_for(reg, bad("bad_declaration")).find("option 'tolerance' has unknown type 'float'") !=
        std::string::npos);
}

TEST_CASE("a sweepable option must be a scorer's bool with a default") {
  core::component_registry reg;
  CHECK(
      reason_for(reg, bad("sweepable_cell_matcher"))
          .find(
              "cell_matcher 'swept' option 'strict' is declared sweepable; only a scorer's option can be") !=
      std::string::npos);
  CHECK(
      reason_for(reg, bad("sweepable_int"))
          .find("scorer 'counted' option 'rounds' is declared sweepable but is not a bool with a default") !=
      std::string::npos);
}

TEST_CASE("a component name already registered for its kind is refused with both files") {
  core::component_registry reg;
  reg.load_directories({test::plugin_dir()});
  const std::string reason = reason_for(reg, bad("duplicate_name"));
  CHECK(reason.find("row_matcher 'greedy_partial' is already provided by") != std::string::npos);
  CHECK(reason.find("sqlmorph_matchers_reference.so") != std::string::npos);
  CHECK(reg.find("row_matcher", "greedy_partial")->version == "1.0.0");
}

TEST_CASE("a directory with broken libraries still loads the good ones") {
  core::component_registry reg;
  reg.load_directories({test::plugin_dir(), test::bad_plugin_dir(), test::source_dir() / "no-such-dir"});
  CHECK(reg.find("backend", "sqlite") != nullptr);
  CHECK(reg.refusals().size() == 7);
}

TEST_CASE("options are validated against the declarations before a component exists") {
  const core::component_registry& reg = test::registry();
  CHECK(test::usage_error_of([&] {
          reg.create<row_matcher>(core::component_spec("greedy_partial").with("cell", std::string("exact")));
        }) == "row_matcher 'greedy_partial': unknown option 'cell'; its options are: cells");
  CHECK(test::usage_error_of([&] {
          reg.create<scorer>(
              core::component_spec("sqlmorph_cells").with("penalize_extra_pred_cols", std::string("yes")));
        }) ==
        "scorer 'sqlmorph_cells': option 'penalize_extra_pred_cols' must be of type bool, got a string");
  CHECK(test::usage_error_of([&] {
          reg.create<row_matcher>(core::component_spec("greedy_partial").with("cells", std::string("nope")));
        }).find("option 'cells': unknown cell_matcher 'nope'; registered: exact") != std::string::npos);
  CHECK(test::usage_error_of([&] {
          reg.create<row_matcher>(core::component_spec("no_such_matcher"));
        }).find("unknown row_matcher 'no_such_matcher'; registered: ") == 0);
  CHECK(test::usage_error_of([&] {
          reg.create<row_matcher>(
              core::component_spec("permutation_equivalence").with("order_rule", std::string("sometimes")));
        }).find("could not be created: order_rule must be sql_substring, sql_tokens, never or always") !=
        std::string::npos);
}

TEST_CASE("equal specs share one instance once defaults are filled in") {
  const core::component_registry& reg = test::registry();
  const auto a = reg.create<scorer>(core::component_spec("sqlmorph_cells"));
  const auto b =
      reg.create<scorer>(core::component_spec("sqlmorph_cells").with("penalize_extra_pred_cols", true));
  const auto c =
      reg.create<scorer>(core::component_spec("sqlmorph_cells").with("penalize_extra_pred_cols", false));
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("a plugin written against the SDK alone plugs into the reference row matchers") {
  core::component_registry reg;
  reg.load_directories({test::plugin_dir(), test::build_dir() / "tests" / "test_plugins"});
  REQUIRE(reg.find("cell_matcher", "numeric_tolerance") != nullptr);
  const auto cells =
      reg.create<cell_matcher>(core::component_spec("numeric_tolerance").with("tolerance", 0.5));
  CHECK(cells->similarity(value::real(1.0), value::real(1.4)) == 1.0);
  CHECK(cells->similarity(value::real(1.0), value::real(1.6)) == 0.0);
  CHECK(test::usage_error_of([&] {
          reg.create<cell_matcher>(core::component_spec("numeric_tolerance").with("tolerance", -1.0));
        }).find("cell_matcher 'numeric_tolerance' could not be created: tolerance must be >= 0") == 0);
  // Integers are accepted where a double is declared.
  CHECK_NOTHROW(
      reg.create<cell_matcher>(core::component_spec("numeric_tolerance").with("tolerance", std::int64_t{2})));
}
