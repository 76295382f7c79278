// summary.json's statistics over a real run (three Spider dev systems): every mean's 95% bootstrap
// interval equals the bootstrap of that group's values read back from results.jsonl, and the
// pairwise table's counts, McNemar and paired-bootstrap p-values equal those computed here from
// the records.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "output/statistics.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;

namespace {

const char* const metrics[4] = {"EX", "EXP", "EXR", "F1"};

std::string variant_of(const json& r) {
  return r["technique"].get<std::string>() + "/" + r["penalize_extra_pred_cols"].dump();
}

}  // namespace

TEST_CASE("summary.json: bootstrap intervals of every mean and the pairwise tests between systems") {
  if (test::skip_without_shared("summary statistics over Spider dev")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  test::temp_dir dir;
  const auto r = test::run_sqlmorph({"--config",
                                     (test::source_dir() / "sqlmorph.toml").string(),
                                     "-q",
                                     "eval",
                                     "--benchmark",
                                     "spider",
                                     "--gold",
                                     (spider / "dev_gold.sql").string(),
                                     "--pred",
                                     "dail=" + (spider / "predictions/dail-sql-gpt4.sql").string(),
                                     "--pred",
                                     "c3=" + (spider / "predictions/c3-gpt35.sql").string(),
                                     "--pred",
                                     "resd=" + (spider / "predictions/resdsql-3b.sql").string(),
                                     "--db-root",
                                     (spider / "database").string(),
                                     "--techniques",
                                     "execution_accuracy,exact_column_and_partial_cell",
                                     "--penalize-extra-pred-cols",
                                     "both",
                                     "--out",
                                     dir.path().string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json summary = json::parse(test::file_bytes(dir.path() / "summary.json"));
  const auto records = test::read_jsonl(dir.path() / "results.jsonl");

  // Values per (system, variant) and per (system, variant, difficulty), in record order.
  std::map<std::string, std::vector<double>> values;
  // Per (system, variant): question -> {EX, F1} (NaN when null), and the questions in record order.
  std::map<std::string, std::map<std::string, std::pair<double, double>>> by_question;
  std::map<std::string, std::vector<std::string>> question_order;
  for (const json& x : records) {
    const std::string system = x["system"].get<std::string>();
    const std::string key = system + "|" + variant_of(x);
    for (const char* m : metrics) {
      if (x[m].is_null()) continue;
      values[key + "|" + m].push_back(x[m].get<double>());
      values[key + "|" + x["difficulty"].get<std::string>() + "|" + m].push_back(x[m].get<double>());
    }
    const auto value = [&](const char* m) { return x[m].is_null() ? std::nan("") : x[m].get<double>(); };
    const std::string question = x["id"].get<std::string>().substr(system.size() + 1);
    by_question[key][question] = {value("EX"), value("F1")};
    question_order[key].push_back(question);
  }

  std::size_t checked = 0;
  const auto check_group = [&](const json& g, const std::string& key) {
    REQUIRE(g.contains("interval"));
    for (const char* m : metrics) {
      const auto it = values.find(key + "|" + m);
      if (it == values.end()) {
        CHECK(g["interval"][m].is_null());
        continue;
      }
      const output::interval expected = output::bootstrap_mean(it->second);
      const json& got = g["interval"][m];
      REQUIRE(got.is_array());
      CHECK(got[0].get<double>() == doctest::Approx(expected.low).epsilon(1e-6));
      CHECK(got[1].get<double>() == doctest::Approx(expected.high).epsilon(1e-6));
      CHECK(got[0].get<double>() <= g[m].get<double>());
      CHECK(got[1].get<double>() >= g[m].get<double>());
      ++checked;
    }
  };
  for (const json& g : summary["techniques"])
    check_group(g, g["system"].get<std::string>() + "|" + variant_of(g));
  for (const json& g : summary["by_difficulty"])
    check_group(
        g, g["system"].get<std::string>() + "|" + variant_of(g) + "|" + g["difficulty"].get<std::string>());
  // 3 systems × (EX of execution_accuracy + 4 metrics × 2 variants) at the top level, and per difficulty.
  CHECK(checked == 3 * 9 * 5);
  // By database too (wta_1 has no database file: its EX is null, and so is its interval).
  for (const json& g : summary["by_database"]) CHECK(g["interval"]["EX"].is_array() == !g["EX"].is_null());

  const json& stats = summary["statistics"];
  CHECK(stats["resamples"] == output::default_resamples);
  CHECK(stats["seed"] == output::default_seed);
  CHECK(stats["pairs"] == "all");
  // 3 pairs for each of the 3 variants.
  REQUIRE(stats["pairwise"].size() == 9);
  for (const json& p : stats["pairwise"]) {
    const std::string variant =
        p["technique"].get<std::string>() + "/" + p["penalize_extra_pred_cols"].dump();
    const auto& a = by_question.at(p["a"].get<std::string>() + "|" + variant);
    const auto& order = question_order.at(p["a"].get<std::string>() + "|" + variant);
    const auto& b = by_question.at(p["b"].get<std::string>() + "|" + variant);
    const bool by_f1 = p["technique"] != "execution_accuracy";
    CHECK(p["metric"] == (by_f1 ? "F1" : "EX"));
    std::vector<double> va;
    std::vector<double> vb;
    std::size_t a_only = 0;
    std::size_t b_only = 0;
    for (const std::string& question : order) {
      const auto& scores = a.at(question);
      const auto other = b.find(question);
      if (other == b.end()) continue;
      if (!std::isnan(scores.first) && !std::isnan(other->second.first)) {
        a_only += scores.first >= 1 && other->second.first < 1;
        b_only += scores.first < 1 && other->second.first >= 1;
      }
      const double x = by_f1 ? scores.second : scores.first;
      const double y = by_f1 ? other->second.second : other->second.first;
      if (std::isnan(x) || std::isnan(y)) continue;
      va.push_back(x);
      vb.push_back(y);
    }
    CHECK(p["compared"] == va.size());
    CHECK(va.size() == 972);
    const output::pairwise_counts counts = output::count_pairwise(va, vb);
    CHECK(p["wins"] == counts.wins);
    CHECK(p["losses"] == counts.losses);
    CHECK(p["ties"] == counts.ties);
    CHECK(p["mcnemar"]["a_only"] == a_only);
    CHECK(p["mcnemar"]["b_only"] == b_only);
    CHECK(p["mcnemar"]["p"].get<double>() == doctest::Approx(output::mcnemar_exact_p(a_only, b_only)));
    if (by_f1) {
      // Resampled in the order of the first system's records (values kept as float in the summary).
      CHECK(p["paired_bootstrap_p"].get<double>() ==
            doctest::Approx(output::paired_bootstrap_p(va, vb)).epsilon(0.01));
    } else {
      CHECK(p["paired_bootstrap_p"].is_null());
    }
  }
}
