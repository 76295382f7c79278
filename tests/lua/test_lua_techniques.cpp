// Techniques declared in Lua: the reference declarations equal the built-in ones, declaration
// errors name the script and line, custom Lua components work (and fail) as documented.

#include <doctest/doctest.h>

#include <fstream>
#include <thread>

#include <sqlmorph/backend.hpp>

#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "lua/script_host.hpp"
#include "runner/evaluation_runner.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

// A catalog with the reference scripts plus the scripts of one extra folder.
struct scripted {
  core::config config = core::default_config();
  core::technique_catalog catalog;
  std::unique_ptr<core::script_host> host;

  explicit scripted(std::vector<std::filesystem::path> extra_dirs = {}) {
    config.lua.technique_dirs = {test::source_dir() / "scripts" / "techniques"};
    for (auto& d : extra_dirs) config.lua.technique_dirs.push_back(std::move(d));
    config.lua.lib_dirs = {test::source_dir() / "scripts" / "lib"};
    host = std::make_unique<core::script_host>(config, test::registry(), catalog);
    host->load_technique_scripts();
  }
};

std::string load_error(const std::string& code) {
  test::temp_dir dir;
  std::ofstream(dir.path() / "bad.lua") << code;
  try {
    scripted s({dir.path()});
  } catch (const std::exception& e) {
    std::string message = e.what();
    const std::string path = (dir.path() / "bad.lua").string();
    for (std::size_t p = message.find(path); p != std::string::npos; p = message.find(path))
      message.replace(p, path.size(), "bad.lua");
    return message;
  }
  return "";
}

std::vector<core::record> evaluate(const core::technique_catalog& catalog,
                                   const std::vector<std::string>& techniques, const std::string& gold,
                                   const std::string& pred) {
  core::query_runner runner(exec_limits{});
  core::example_evaluator evaluator(
      runner, catalog.assemble(techniques, core::penalize_choice::yes, test::registry()),
      test::sqlite_routes());
  core::example ex;
  ex.id = "t";
  ex.db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  ex.gold = gold;
  ex.pred = pred;
  return evaluator.evaluate(ex);
}

}  // namespace

TEST_CASE("the Lua declarations assemble exactly the components of the built-in declarations") {
  const core::technique_catalog& lua = test::catalog();
  const core::technique_catalog& builtin = test::builtin_catalog();
  const auto& reg = test::registry();
  for (const std::string& name : builtin.names()) {
    CAPTURE(name);
    const core::technique_spec* a = lua.find(name);
    const core::technique_spec* b = builtin.find(name);
    REQUIRE(a != nullptr);
    CHECK(a->origin.find("scripts/techniques/") != std::string::npos);
    CHECK(reg.instance_key("column_matcher", a->columns) == reg.instance_key("column_matcher", b->columns));
    CHECK(reg.instance_key("row_matcher", a->rows) == reg.instance_key("row_matcher", b->rows));
    CHECK(reg.instance_key("scorer", a->scorer) == reg.instance_key("scorer", b->scorer));
    REQUIRE(a->rewriters.size() == b->rewriters.size());
    for (std::size_t i = 0; i < a->rewriters.size(); ++i) {
      CHECK(reg.instance_key("sql_rewriter", a->rewriters[i]) ==
            reg.instance_key("sql_rewriter", b->rewriters[i]));
    }
    CHECK(a->normalizers.empty());
  }
  // Same instances, so the same numbers on every example, at the same cost.
  const auto from_lua = lua.assemble({"exact_column_and_partial_cell"}, core::penalize_choice::both, reg);
  const auto from_cpp = builtin.assemble({"exact_column_and_partial_cell"}, core::penalize_choice::both, reg);
  CHECK(from_lua[0]->rewriter_key() == from_cpp[0]->rewriter_key());
}

TEST_CASE("declaration errors name the script, the line and what is wrong") {
  CHECK(
      load_error("sqlmorph.technique{ name = 'x', columns = sqlmorph.columns.exact_names{},\n"
                 "  rows = sqlmorph.rows.greedy_partal{}, scorer = sqlmorph.scorers.verdict{} }\n")
          .find(
              "bad.lua:2: unknown row_matcher 'greedy_partal' (sqlmorph.rows.greedy_partal); registered: ") ==
      0);
  CHECK(load_error("local r = sqlmorph.rows.greedy_partial{ cells = 3 }\n") ==
        "bad.lua:1: rows.greedy_partial: option 'cells' must be a cell_matcher (sqlmorph.cells.NAME{...}) or "
        "its name, got number");
  CHECK(load_error("local s = sqlmorph.scorers.sqlmorph_cells{ penalize_extra_pred_cols = 'yes' }\n") ==
        "bad.lua:1: scorers.sqlmorph_cells: option 'penalize_extra_pred_cols' must be a bool, got string");
  CHECK(load_error("local r = sqlmorph.rows.greedy_partial{ cell = 'exact' }\n") ==
        "bad.lua:1: rows.greedy_partial: unknown option 'cell'; its options are: cells");
  CHECK(load_error("sqlmorph.technique{ name = 'x', columns = sqlmorph.rows.multiset{}, rows = "
                   "sqlmorph.rows.multiset{},"
                   " scorer = sqlmorph.scorers.verdict{} }\n") ==
        "bad.lua:1: technique 'x': 'columns' must be a column_matcher, got the row_matcher 'multiset'");
  CHECK(load_error("sqlmorph.technique{ name = 'x', rows = 'multiset', scorer = 'verdict' }\n") ==
        "bad.lua:1: technique 'x': 'columns' is required (a column_matcher)");
  CHECK(load_error("sqlmorph.technique{ name = 'x', colums = 'positional' }\n")
            .find("bad.lua:1: sqlmorph.technique: unknown field 'colums'") == 0);
  CHECK(load_error("sqlmorph.technique{ name = 'x', columns = 'exact_names', rows = "
                   "'permutation_equivalence', scorer = 'verdict' }\n") ==
        "bad.lua:1: technique 'x': row matcher 'permutation_equivalence' does not accept the 'paired' "
        "alignments of column matcher 'exact_names'");
  // A scorer that reads what only another row matcher reports is refused when the technique is
  // assembled, not on the first example.
  CHECK(load_error("sqlmorph.technique{ name = 'x', columns = 'exact_names', rows = 'multiset', scorer = "
                   "'row_similarity' }\n") ==
        "bad.lua:1: technique 'x': scorer 'row_similarity' reads the row field 'similarity_sum', which row "
        "matcher 'multiset' does not report");
  CHECK(load_error("sqlmorph.technique{ name = 'test_suite', columns = 'any_order', rows = "
                   "'permutation_equivalence', scorer = 'verdict' }\n")
            .find("bad.lua:1: technique 'test_suite' is declared twice (first at ") == 0);
  CHECK(load_error("local x = \n").find("bad.lua:2: unexpected symbol near <eof>") == 0);
  CHECK(load_error("error('custom failure')\n") == "bad.lua:1: custom failure");
}

TEST_CASE("values cross into Lua and back with their kinds") {
  test::temp_dir dir;
  std::ofstream(dir.path() / "values.lua") << R"(
local function identity(v)
  if v == sqlmorph.null then assert(sqlmorph.kind(v) == "null") end
  return v
end
-- Types as Lua sees them, checked by a scorer over a real result.
local function inspect(gold, pred)
  local row = gold:row(1)
  assert(math.type(row[1]) == "integer", "integer")
  assert(math.type(row[2]) == "float", "real")
  assert(type(row[3]) == "string", "text")
  assert(row[4] == sqlmorph.null, "null")
  assert(tostring(row[5]) == "b'\\x00\\xff'", "blob repr " .. tostring(row[5]))
  assert(#row[5] == 2)
  assert(sqlmorph.str(3.0) == "3.0" and sqlmorph.str(1e16) == "1e+16" and sqlmorph.str(sqlmorph.null) == "None")
  assert(sqlmorph.equal(1, 1.0) and not sqlmorph.equal(1, "1") and sqlmorph.equal(sqlmorph.null, nil))
  assert(sqlmorph.number(" 42 ") == 42 and math.type(sqlmorph.number("42")) == "integer")
  assert(sqlmorph.number("-1.5e3") == -1500.0 and sqlmorph.number("abc") == nil)
  assert(gold:columns()[2] == "r" and gold:column_count() == 5 and #gold == 1)
  return { EX = 1, EXP = 1, EXR = 1, F1 = 1 }
end
sqlmorph.technique{ name = "values_roundtrip", normalize = { sqlmorph.normalizer(identity) },
  columns = sqlmorph.columns.positional{}, rows = sqlmorph.rows.none{}, scorer = sqlmorph.scorer(inspect) }
)";
  scripted s({dir.path()});
  const auto records = evaluate(s.catalog, {"values_roundtrip"},
                                "SELECT 1 AS i, 2.5 AS r, 'x' AS t, NULL AS n, x'00ff' AS b", "SELECT 1");
  REQUIRE(records.size() == 1);
  CHECK(records[0].error == "");
  CHECK(records[0].status == core::example_status::ok);
}

TEST_CASE("the example techniques change the numbers as intended") {
  scripted s({test::source_dir() / "examples" / "techniques"});
  // A Lua normalizer: case and surrounding spaces no longer matter.
  auto r = evaluate(s.catalog, {"exact_column_and_partial_cell", "case_insensitive_partial_cell"},
                    "SELECT name FROM employees WHERE dept = 'eng'",
                    "SELECT ' ' || upper(name) AS name FROM employees WHERE dept = 'eng'");
  CHECK(*r[0].scores.f1 == 0.0);
  CHECK(*r[1].scores.f1 == 1.0);
  // A Lua cell matcher: ratings within 1% count.
  r = evaluate(s.catalog, {"exact_column_and_partial_cell", "tolerant_partial_cell"},
               "SELECT name, rating FROM employees WHERE rating IS NOT NULL",
               "SELECT name, rating * 1.005 AS rating FROM employees WHERE rating IS NOT NULL");
  CHECK(*r[0].scores.f1 == 0.5);
  CHECK(*r[1].scores.f1 == 1.0);
  r = evaluate(s.catalog, {"tolerant_partial_cell"},
               "SELECT name, rating FROM employees WHERE rating IS NOT NULL",
               "SELECT name, rating * 1.05 AS rating FROM employees WHERE rating IS NOT NULL");
  CHECK(*r[0].scores.f1 == 0.5);  // 5% is beyond the tolerance
  // A Lua scorer: two of three predicted columns reproduce the gold's two columns.
  r = evaluate(s.catalog, {"column_recall"}, "SELECT name, dept FROM employees",
               "SELECT dept AS d, name AS n, salary FROM employees");
  CHECK(*r[0].scores.ex == 0.0);
  CHECK(*r[0].scores.exr == 1.0);
  CHECK(*r[0].scores.exp == doctest::Approx(2.0 / 3.0));
  REQUIRE(r[0].scores.extra.size() == 2);
  CHECK(r[0].scores.extra[0].first == "matched_columns");
  CHECK(std::get<std::int64_t>(r[0].scores.extra[0].second) == 2);
  CHECK(r[0].scores.extra[1].first == "alignment");  // how the columns were paired
}

TEST_CASE(
    "a failing Lua hook marks the example script_error, with file, line and traceback, the run goes on") {
  test::temp_dir dir;
  std::ofstream(dir.path() / "fragile.lua")
      << "local function picky(v)\n"
         "  if v == 'Brian' then error('cannot normalize ' .. v) end\n"
         "  return v\n"
         "end\n"
         "sqlmorph.technique{ name = 'fragile', normalize = { sqlmorph.normalizer(picky) },\n"
         "  columns = 'exact_names', rows = 'multiset', scorer = 'sqlmorph_cells' }\n";
  scripted s({dir.path()});
  const auto records = evaluate(s.catalog, {"fragile", "execution_accuracy"}, "SELECT name FROM employees",
                                "SELECT name FROM employees");
  CHECK(records[0].status == core::example_status::script_error);
  CHECK(records[0].error.find((dir.path() / "fragile.lua").string() + ":2: cannot normalize Brian") == 0);
  CHECK(records[0].error.find("stack traceback:") != std::string::npos);
  CHECK(records[0].error.find("fragile.lua:2: in ") != std::string::npos);
  CHECK(*records[0].scores.exp == 0.0);
  CHECK(records[1].status == core::example_status::ok);  // other techniques of the example are unaffected
  // A normalizer that returns a table is an error naming the declaration.
  test::temp_dir dir2;
  std::ofstream(dir2.path() / "wrong.lua")
      << "sqlmorph.technique{ name = 'wrong', normalize = { sqlmorph.normalizer(function(v) return {} end) "
         "},\n"
         "  columns = 'exact_names', rows = 'multiset', scorer = 'sqlmorph_cells' }\n";
  scripted s2({dir2.path()});
  const auto wrong = evaluate(s2.catalog, {"wrong"}, "SELECT 1 AS a", "SELECT 1 AS a");
  CHECK(wrong[0].status == core::example_status::script_error);
  CHECK(wrong[0].error.find((dir2.path() / "wrong.lua").string() +
                            ":1: the normalizer returned no value: expected a value") == 0);
}

TEST_CASE("with on_error = abort, a failing hook stops the run after writing what was done") {
  test::temp_dir dir;
  std::ofstream(dir.path() / "fragile.lua")
      << "sqlmorph.technique{ name = 'fragile',\n"
         "  normalize = { sqlmorph.normalizer(function(v) if v == 2 then error('two') end return v end) },\n"
         "  columns = 'positional', rows = 'set_equality', scorer = 'verdict' }\n";
  scripted s({dir.path()});
  core::evaluation_settings settings;
  settings.routes = test::sqlite_routes();
  settings.techniques = s.catalog.assemble({"fragile"}, core::penalize_choice::yes, test::registry());
  settings.on_script_error = core::script_error_policy::abort;
  settings.out_dir = dir.path() / "out";
  std::vector<core::example> examples(3);
  for (int i = 0; i < 3; ++i) {
    examples[i].id = "e" + std::to_string(i + 1);
    examples[i].db = (test::build_dir() / "examples/demo/demo.sqlite").string();
    examples[i].gold = examples[i].pred = "SELECT " + std::to_string(i + 1);
  }
  CHECK_THROWS_WITH_AS(core::run_evaluation(examples, settings),
                       doctest::Contains("run stopped at example e2"), core::run_aborted);
  const std::string written = test::file_bytes(dir.path() / "out" / "results.jsonl");
  CHECK(written.find("\"id\":\"e1\"") != std::string::npos);
  CHECK(written.find("\"id\":\"e2\"") != std::string::npos);
  CHECK(written.find("\"id\":\"e3\"") == std::string::npos);
}

TEST_CASE("a Lua component called from another thread runs in that thread's own Lua state") {
  scripted s({test::source_dir() / "examples" / "techniques"});
  const auto main_thread =
      evaluate(s.catalog, {"case_insensitive_partial_cell"}, "SELECT name FROM employees",
               "SELECT upper(name) AS name FROM employees");
  std::vector<core::record> other_thread;
  std::thread worker([&] {
    other_thread = evaluate(s.catalog, {"case_insensitive_partial_cell"}, "SELECT name FROM employees",
                            "SELECT upper(name) AS name FROM employees");
  });
  worker.join();
  REQUIRE(other_thread.size() == 1);
  CHECK(other_thread[0].status == core::example_status::ok);
  CHECK(*other_thread[0].scores.f1 == *main_thread[0].scores.f1);
  CHECK(*other_thread[0].scores.f1 == 1.0);
}

TEST_CASE(
    "scripts cannot change what every script shares: the sqlmorph module, the libraries, the string "
    "metatable") {
  // Plain variables, not a structured binding: clang 14 (the sanitized test build) cannot capture
  // bindings in CAPTURE's lambda.
  for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
           {"sqlmorph.technique = function() end\n",
            "bad.lua:1: cannot assign sqlmorph.technique: sqlmorph is read-only (every script shares it)"},
           {"sqlmorph.rows.multiset = nil\n", "bad.lua:1: cannot assign sqlmorph.rows.multiset: "},
           {"rawset(sqlmorph, 'technique', print)\n", "bad.lua:1: cannot assign sqlmorph.technique: "},
           {"string.rep = nil\n", "bad.lua:1: cannot assign string.rep: "},
           {"table.insert = print\n", "bad.lua:1: cannot assign table.insert: "},
           {"getmetatable('').__index = {}\n", "bad.lua:1: cannot assign getmetatable('').__index: "},
           {"getmetatable('').__index.upper = nil\n", "bad.lua:1: cannot assign string.upper: "},
       }) {
    const std::string& code = entry.first;
    const std::string& refused = entry.second;
    CAPTURE(code);
    CHECK(load_error(code).find(refused) == 0);
  }
  CHECK(load_error("setmetatable(sqlmorph, {})\n").find("cannot change a protected metatable") !=
        std::string::npos);
  // A script that tries and catches the error changes nothing: every reference technique is there.
  test::temp_dir dir;
  std::ofstream(dir.path() / "sneaky.lua") << "pcall(function() sqlmorph.technique = function() end end)\n"
                                              "pcall(function() string.lower = string.upper end)\n"
                                              "assert(('A'):lower() == 'a')\n";
  scripted s({dir.path()});
  const scripted reference;
  CHECK(s.catalog.names() == reference.catalog.names());
  CHECK(s.catalog.find("test_suite") != nullptr);
  // Reading and iterating still work.
  test::temp_dir dir2;
  std::ofstream(dir2.path() / "reader.lua")
      << "local n = 0 for k in pairs(sqlmorph.rows) do n = n + 1 end\n"
         "assert(n > 0) assert(type(sqlmorph.technique) == 'function')\n"
         "assert(('x'):rep(3) == 'xxx')\n";
  CHECK_NOTHROW(scripted({dir2.path()}));
}
