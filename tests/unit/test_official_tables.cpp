// The official evaluators' tables filled from a run's summary: a technique that judged no
// prediction (spider_test_suite on a backend that opens no database files) gets no row of zeros.

#include <doctest/doctest.h>

#include <string>

#include "output/official_tables.hpp"

namespace core = sqlmorph::core;

namespace {

core::record spider_record(int i, const std::string& technique, core::example_status status,
                           std::optional<double> ex) {
  static const char* const hardness[] = {"easy", "medium", "hard", "extra"};
  core::record r;
  r.id = std::to_string(i);
  r.db_id = "db";
  r.difficulty = hardness[i % 4];
  r.technique = technique;
  r.status = status;
  r.scores.ex = ex;
  return r;
}

}  // namespace

TEST_CASE("spider_official_table: the test-suite row only when spider_test_suite judged a prediction") {
  core::run_summary summary;
  for (int i = 0; i < 8; ++i) {
    summary.add(spider_record(i, "spider_official_exec", core::example_status::ok, i % 2 == 0 ? 1.0 : 0.0));
    summary.add(spider_record(i, "spider_test_suite", core::example_status::technique_error, 0.0));
  }
  const std::string table = core::spider_official_table(summary, "");
  CHECK(table.find("execution            1.000                0.000                1.000                0.000"
                   "                0.500") != std::string::npos);
  CHECK(table.find("test-suite") == std::string::npos);

  // A prediction that failed is judged (scored 0): the row is there.
  core::run_summary judged;
  for (int i = 0; i < 8; ++i) {
    judged.add(spider_record(i, "spider_official_exec", core::example_status::ok, 1.0));
    judged.add(spider_record(i, "spider_test_suite", core::example_status::pred_error, 0.0));
  }
  CHECK(core::spider_official_table(judged, "").find("test-suite           0.000") != std::string::npos);
}

TEST_CASE("bird_official_table: no EX block of zeros when no prediction was judged") {
  core::run_summary summary;
  for (int i = 0; i < 3; ++i) {
    core::record r;
    r.id = std::to_string(i);
    r.difficulty = i == 0 ? "simple" : "moderate";
    r.technique = "execution_accuracy";
    r.status = core::example_status::backend_error;
    r.scores.ex = 0.0;
    summary.add(r);
  }
  CHECK(core::bird_official_table(summary, "").empty());
}
