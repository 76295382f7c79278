// sqlmorph.toml: defaults, values, and errors that name the file, line and column.

#include <doctest/doctest.h>

#include <fstream>

#include "config/config.hpp"
#include "errors.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {
std::filesystem::path write(const test::temp_dir& dir, const std::string& text) {
  const auto file = dir.path() / "sqlmorph.toml";
  std::ofstream(file) << text;
  return file;
}
std::string error_of(const std::filesystem::path& file) {
  return test::usage_error_of([&] { core::load_config(file); });
}
}  // namespace

TEST_CASE("the repository's sqlmorph.toml is valid and gives the documented defaults") {
  const core::config c = core::load_config(test::source_dir() / "sqlmorph.toml");
  CHECK(c.run.timeout_seconds == 30.0);
  CHECK(c.run.max_rows == 1000000);
  CHECK(c.run.backend == "sqlite");
  REQUIRE(!c.plugin_dirs.empty());
}

TEST_CASE("values are read and plugin directories resolved") {
  test::temp_dir dir;
  const auto file = write(
      dir,
      "[plugins]\ndirs = [\"plugs\", \"/abs/dir\", \"{exe_dir}/x\"]\n[run]\ntimeout = 2.5\nmax_rows = 10\n");
  const core::config c = core::load_config(file);
  CHECK(c.run.timeout_seconds == 2.5);
  CHECK(c.run.max_rows == 10);
  REQUIRE(c.plugin_dirs.size() == 3);
  CHECK(c.plugin_dirs[0] == dir.path() / "plugs");
  CHECK(c.plugin_dirs[1] == "/abs/dir");
  CHECK(c.plugin_dirs[2] == core::executable_dir() / "x");
}

TEST_CASE("unknown keys and wrong types are errors with file:line:column") {
  test::temp_dir dir;
  const auto f1 = write(dir, "[run]\ntimeout = 3\ntimeuot = 4\n");
  const std::string e1 = error_of(f1);
  CHECK(e1.find(f1.string() + ":3:1: unknown key 'timeuot' in [run]") != std::string::npos);
  const std::string e2 = error_of(write(dir, "[run]\nmax_rows = \"many\"\n"));
  CHECK(e2.find(":2:") != std::string::npos);
  CHECK(e2.find("'max_rows' must be a non-negative integer") != std::string::npos);
  const std::string e3 = error_of(write(dir, "[runn]\n"));
  CHECK(e3.find(":1:") != std::string::npos);
  CHECK(e3.find("unknown key 'runn'") != std::string::npos);
  const std::string e4 = error_of(write(dir, "[run\n"));
  CHECK(e4.find(":1:") != std::string::npos);
  const std::string e5 = error_of(write(dir, "[plugins]\ndirs = [1]\n"));
  CHECK(e5.find(":2:") != std::string::npos);
}

TEST_CASE("techniques can be declared in [techniques.NAME] tables, in file order") {
  test::temp_dir dir;
  const auto file = write(
      dir,
      "[techniques.zeta]\n"
      "columns = \"exact_names\"\n"
      "rows = { name = \"greedy_partial\", cells = { name = \"numeric_tolerance\", tolerance = 0.5 } }\n"
      "scorer = { name = \"sqlmorph_cells\", penalize_extra_pred_cols = false }\n"
      "[techniques.alpha]\n"
      "description = \"positional sets\"\n"
      "rewriters = [\"spider_fix_spaced_operators\"]\n"
      "columns = \"positional\"\n"
      "rows = \"set_equality\"\n"
      "scorer = \"verdict\"\n");
  const core::config c = core::load_config(file);
  REQUIRE(c.techniques.size() == 2);
  const core::technique_spec& zeta = c.techniques[0];
  CHECK(zeta.name == "zeta");
  CHECK(zeta.origin == file.string() + ":1:1");
  CHECK(zeta.rows.name == "greedy_partial");
  const auto& cells = std::get<std::shared_ptr<const core::component_spec>>(zeta.rows.options.at("cells"));
  CHECK(cells->name == "numeric_tolerance");
  CHECK(std::get<double>(cells->options.at("tolerance")) == 0.5);
  CHECK(std::get<bool>(zeta.scorer.options.at("penalize_extra_pred_cols")) == false);
  CHECK(c.techniques[1].name == "alpha");
  CHECK(c.techniques[1].description == "positional sets");
  REQUIRE(c.techniques[1].rewriters.size() == 1);

  const std::string missing = error_of(write(dir, "[techniques.t]\ncolumns = \"exact_names\"\n"));
  CHECK(missing.find(":1:1: [techniques.t] needs 'columns', 'rows' and 'scorer'") != std::string::npos);
  const std::string unknown =
      error_of(write(dir, "[techniques.t]\ncolumns = \"a\"\nrows = \"b\"\nscorer = \"c\"\nrow = \"d\"\n"));
  CHECK(unknown.find(":5:1: unknown key 'row' in [techniques.t]") != std::string::npos);
  const std::string bad = error_of(write(dir, "[techniques.t]\ncolumns = 3\n"));
  CHECK(bad.find(":2:") != std::string::npos);
  CHECK(bad.find("columns must be a component name or a table") != std::string::npos);
}
