// The runner's hooks for programs that embed it (the Python module): records handed over unit by
// unit on the calling thread, a stop asked by another thread, no signal handlers of its own.

#include <doctest/doctest.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "runner/evaluation_runner.hpp"
#include "test_support.hpp"

namespace core = sqlmorph::core;
namespace test = sqlmorph::test;

namespace {

std::vector<core::example> demo_examples(int n) {
  std::vector<core::example> examples(n);
  for (int i = 0; i < n; ++i) {
    examples[i].id = "e" + std::to_string(i);
    examples[i].db = (test::build_dir() / "examples/demo/demo.sqlite").string();
    examples[i].gold = examples[i].pred = "SELECT " + std::to_string(i);
  }
  return examples;
}

core::evaluation_settings settings_for_hooks() {
  core::evaluation_settings settings;
  settings.routes = test::sqlite_routes();
  settings.techniques = {test::technique("execution_accuracy")};
  settings.jobs = 2;
  return settings;
}

}  // namespace

TEST_CASE("on_unit gets every record once, in order, on the thread that runs the evaluation") {
  const auto examples = demo_examples(30);
  auto settings = settings_for_hooks();
  std::vector<std::string> ids;
  const auto caller = std::this_thread::get_id();
  bool other_thread = false;
  settings.on_unit = [&](const std::vector<core::record>& records) {
    other_thread = other_thread || std::this_thread::get_id() != caller;
    for (const auto& r : records) ids.push_back(r.id);
  };
  const auto outcome = core::run_evaluation(examples, settings);
  CHECK_FALSE(other_thread);
  REQUIRE(ids.size() == 30);
  for (int i = 0; i < 30; ++i) CHECK(ids[i] == "e" + std::to_string(i));
  CHECK_FALSE(outcome.stats.interrupted);
}

TEST_CASE("stop_requested stops the run as an interrupt does") {
  // Each example counts 50,000 rows (about 25 milliseconds; a different query each, so none is
  // reused): the workers cannot have finished the 300 examples (seconds of work) when the stop
  // comes after the first unit is written, and the run writes what they finished, not all of it.
  auto examples = demo_examples(300);
  for (std::size_t i = 0; i < examples.size(); ++i) {
    examples[i].gold = examples[i].pred =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000) SELECT count(*) "
        "+ " +
        std::to_string(i) + " FROM c";
  }
  auto settings = settings_for_hooks();
  std::atomic<bool> stop{false};
  settings.stop_requested = &stop;
  std::size_t seen = 0;
  settings.on_unit = [&](const std::vector<core::record>& records) {
    seen += records.size();
    if (seen >= 5) stop = true;
  };
  const auto outcome = core::run_evaluation(examples, settings);
  CHECK(outcome.stats.interrupted);
  CHECK(seen >= 5);
  CHECK(seen < 300);
}

TEST_CASE("handle_signals = false leaves the program's SIGINT handler in place during the run") {
  static std::atomic<int> calls{0};
  struct sigaction mine {};
  mine.sa_handler = [](int) { ++calls; };
  sigemptyset(&mine.sa_mask);
  struct sigaction before {};
  sigaction(SIGINT, &mine, &before);
  auto settings = settings_for_hooks();
  settings.handle_signals = false;
  bool raised = false;
  settings.on_unit = [&](const std::vector<core::record>&) {
    if (!raised) std::raise(SIGINT);
    raised = true;
  };
  const auto outcome = core::run_evaluation(demo_examples(10), settings);
  sigaction(SIGINT, &before, nullptr);
  CHECK(calls == 1);
  CHECK_FALSE(outcome.stats.interrupted);
}
