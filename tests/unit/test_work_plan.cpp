// How a run is cut into units of work (runner/work_plan.hpp): one unit per item, and two
// neighbouring items that ask for the same gold query in one unit.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runner/work_plan.hpp"

using namespace sqlmorph;

namespace {

struct answer {
  answer(std::string item_, std::string gold_, std::string db_ = "a.sqlite", std::string gold_backend_ = "")
      : item(std::move(item_)),
        gold(std::move(gold_)),
        db(std::move(db_)),
        gold_backend(std::move(gold_backend_)) {}
  std::string item;
  std::string gold;
  std::string db;
  std::string gold_backend;
};

// Every system answers every item, system by system (as --pred files are read).
std::vector<core::example> answers(const std::vector<answer>& items, int systems) {
  std::vector<core::example> out;
  for (int s = 0; s < systems; ++s) {
    for (const answer& a : items) {
      core::example ex;
      ex.system = "s" + std::to_string(s);
      ex.id = ex.system + ":" + a.item;
      ex.item = a.item;
      ex.gold = a.gold;
      ex.db = a.db;
      ex.db_id = a.db;
      ex.gold_backend = a.gold_backend;
      out.push_back(ex);
    }
  }
  return out;
}

// The units as lists of example indices.
std::vector<std::vector<std::size_t>> plan(const std::vector<core::example>& examples) {
  std::vector<std::vector<std::size_t>> out;
  for (const core::work_unit& u : core::plan_work(examples)) out.push_back(u.examples);
  return out;
}

}  // namespace

TEST_CASE("two neighbouring items with one gold query are one unit, their examples in order") {
  // Items 0 and 1 ask for the same query, 2 for another; two systems (examples 0-2, then 3-5).
  const auto examples = answers({{"0", "SELECT 1"}, {"1", "SELECT 1"}, {"2", "SELECT 2"}}, 2);
  CHECK(plan(examples) == std::vector<std::vector<std::size_t>>{{0, 3, 1, 4}, {2, 5}});
  // One system: the same.
  CHECK(plan(answers({{"0", "SELECT 1"}, {"1", "SELECT 1"}, {"2", "SELECT 2"}}, 1)) ==
        std::vector<std::vector<std::size_t>>{{0, 1}, {2}});
}

TEST_CASE("never more than two items in a unit") {
  const auto examples = answers(
      {{"0", "SELECT 1"}, {"1", "SELECT 1"}, {"2", "SELECT 1"}, {"3", "SELECT 1"}, {"4", "SELECT 1"}}, 1);
  CHECK(plan(examples) == std::vector<std::vector<std::size_t>>{{0, 1}, {2, 3}, {4}});
}

TEST_CASE("items are joined only when their gold query is one: the same SQL, database and backend") {
  CHECK(plan(answers({{"0", "SELECT 1"}, {"1", "SELECT 2"}}, 1)).size() == 2);
  CHECK(plan(answers({{"0", "SELECT 1", "a.sqlite"}, {"1", "SELECT 1", "b.sqlite"}}, 1)).size() == 2);
  CHECK(plan(answers({{"0", "SELECT 1", "a.sqlite", "duckdb"}, {"1", "SELECT 1", "a.sqlite", "sqlite"}}, 1))
            .size() == 2);
  // Nothing to share without a gold query.
  CHECK(plan(answers({{"0", ""}, {"1", ""}}, 1)).size() == 2);
  // Not neighbours: not joined.
  CHECK(plan(answers({{"0", "SELECT 1"}, {"1", "SELECT 2"}, {"2", "SELECT 1"}}, 1)).size() == 3);
  // Examples without an item are their own units, and joined like items.
  auto loose = answers({{"", "SELECT 1"}, {"", "SELECT 1"}, {"", "SELECT 1"}}, 1);
  CHECK(plan(loose) == std::vector<std::vector<std::size_t>>{{0, 1}, {2}});
}

TEST_CASE("a shard's units are cut as the whole run's plan gave their sizes") {
  const auto units = core::consecutive_units(std::vector<std::size_t>{1, 3, 2}, 6);
  REQUIRE(units.size() == 3);
  CHECK(units[0].examples == std::vector<std::size_t>{0});
  CHECK(units[1].examples == std::vector<std::size_t>{1, 2, 3});
  CHECK(units[2].examples == std::vector<std::size_t>{4, 5});
  CHECK_THROWS_AS(core::consecutive_units(std::vector<std::size_t>{1, 3}, 6), std::logic_error);
  CHECK_THROWS_AS(core::consecutive_units(std::vector<std::size_t>{0, 6}, 6), std::logic_error);
}
