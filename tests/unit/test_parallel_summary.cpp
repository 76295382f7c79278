// parallel_for (core/parallel_for.hpp) and the summary it computes in parallel: every index runs
// once, a failure reaches the caller, and summary.json (its numbers and its text) does not depend on
// the number of threads.

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "output/pretty_json.hpp"
#include "output/record_json.hpp"
#include "output/run_summary.hpp"
#include "parallel_for.hpp"

using namespace sqlmorph;

TEST_CASE("parallel_for runs every index once on as many threads as asked") {
  for (const unsigned threads : {0u, 1u, 2u, 7u}) {
    std::vector<std::atomic<int>> runs(1000);
    core::parallel_for(runs.size(), threads, [&](std::size_t i) { ++runs[i]; });
    for (const auto& r : runs) CHECK(r.load() == 1);
  }
  int none = 0;
  core::parallel_for(0, 4, [&](std::size_t) { ++none; });
  CHECK(none == 0);
}

TEST_CASE("parallel_for passes the first failure on once every thread has stopped") {
  std::atomic<int> started{0};
  CHECK_THROWS_WITH_AS(core::parallel_for(500, 3,
                                          [&](std::size_t i) {
                                            ++started;
                                            if (i == 17) throw std::runtime_error("index 17 failed");
                                          }),
                       "index 17 failed", std::runtime_error);
  CHECK(started.load() >= 18);
}

TEST_CASE("summary.json is the same whatever the number of threads that compute it") {
  core::run_summary summary;
  const char* systems[] = {"a", "b", "c"};
  const char* difficulties[] = {"easy", "medium", "hard", "extra"};
  for (std::size_t i = 0; i < 300; ++i) {
    for (std::size_t s = 0; s < 3; ++s) {
      for (const char* technique : {"execution_accuracy", "exact_column_and_partial_cell"}) {
        for (const bool penalize : {true, false}) {
          core::record r;
          r.system = systems[s];
          r.id = std::string(systems[s]) + ":" + std::to_string(i);
          r.db_id = "db" + std::to_string(i % 7);
          r.difficulty = difficulties[i % 4];
          r.technique = technique;
          r.penalize_extra_pred_cols = penalize;
          const bool right = (i * (s + 3)) % 5 < 3;
          r.scores.ex = right ? 1.0 : 0.0;
          const double partial = right ? 1.0 : static_cast<double>((i + s) % 4) / (penalize ? 5.0 : 4.0);
          const bool verdict = std::string(technique) == "execution_accuracy";
          r.scores.exp = r.scores.exr = r.scores.f1 = verdict ? *r.scores.ex : partial;
          const std::string gold = "SELECT " + std::to_string(i % 50);
          const core::example_facts facts{static_cast<std::uint32_t>(i % 13), gold};
          summary.add(r, &facts);
        }
      }
    }
  }
  const auto one = summary.to_json(300, 1.0, 1);
  CHECK(one["techniques"].size() == 12);
  CHECK(one["by_feature"].size() > 0);
  CHECK(one["statistics"]["pairwise"].size() > 0);
  for (const unsigned threads : {2u, 5u}) CHECK(summary.to_json(300, 1.0, threads) == one);
  // And its text, formatted in parallel, is nlohmann's dump of it byte for byte.
  const std::string dumped = core::dump_json(one, 2);
  for (const unsigned threads : {1u, 2u, 5u}) CHECK(core::pretty_json(one, 2, threads) == dumped);
}

// QVT counts per gold query, whatever the order a group meets them in: here system b meets a
// query (gold 0) only after the run numbered later ones, and both meet queries again.
TEST_CASE("summary QVT: per gold query, met in any order") {
  core::run_summary summary;
  struct answer {
    const char* system;
    int question;
    const char* gold;
    double ex;
  };
  const answer answers[] = {
      {"a", 0, "g0", 1}, {"a", 1, "g1", 1}, {"a", 2, "g0", 0}, {"a", 3, "g2", 1}, {"a", 4, "g1", 1},
      {"a", 5, "g2", 1}, {"b", 1, "g1", 0}, {"b", 3, "g2", 1}, {"b", 0, "g0", 1}, {"b", 2, "g0", 1},
      {"b", 6, "g3", 1}, {"b", 4, "g1", 1}, {"b", 7, "g0", 0},
  };
  for (const answer& x : answers) {
    core::record r;
    r.system = x.system;
    r.id = std::string(x.system) + ":" + std::to_string(x.question);
    r.db_id = "db";
    r.difficulty = "easy";
    r.technique = "execution_accuracy";
    r.scores.ex = x.ex;
    const core::example_facts facts{0, x.gold};
    summary.add(r, &facts);
  }
  const auto j = summary.to_json(8, 1.0, 1);
  REQUIRE(j["qvt"].size() == 2);
  // a: g0 1 of 2, g1 2 of 2, g2 2 of 2 -> (0.5 + 1 + 1) / 3.
  CHECK(j["qvt"][0]["system"] == "a");
  CHECK(j["qvt"][0]["groups"] == 3);
  CHECK(j["qvt"][0]["QVT"].get<double>() == doctest::Approx(2.5 / 3));
  // b: g0 2 of 3, g1 1 of 2 (g2 and g3 asked once) -> (2/3 + 1/2) / 2.
  CHECK(j["qvt"][1]["system"] == "b");
  CHECK(j["qvt"][1]["groups"] == 2);
  CHECK(j["qvt"][1]["QVT"].get<double>() == doctest::Approx((2.0 / 3 + 0.5) / 2));
}
