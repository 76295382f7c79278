// Parity with Spider's official exact set match (evaluation.py --etype match of test-suite-sql-eval,
// run on the same Spider dev pairs): every record of ../shared/parity/spider-em must give the
// official EM, hardness, parse outcome and all ten partial scores.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>
#include <sqlmorph/spider_exact_match.hpp>

#include "datasets/spider_tables.hpp"
#include "test_support.hpp"

using nlohmann::json;
namespace sp = sqlmorph::spider;

namespace {

// What differs between a record and our score, or "" when nothing does.
std::string difference(const json& expected, const sp::exact_match_outcome& got) {
  if (!got.gold_error.empty()) return "gold not scored: " + got.gold_error;
  std::string out;
  if (expected.at("exact").get<int>() != static_cast<int>(got.scores.exact))
    out += " exact " + std::to_string(got.scores.exact);
  if (expected.at("hardness").get<std::string>() != got.hardness) out += " hardness " + got.hardness;
  if (expected.at("pred_parsed").get<bool>() != got.pred_parsed)
    out += " pred_parsed " + std::to_string(got.pred_parsed) + " (" + got.pred_error + ")";
  const json& partial = expected.at("partial");
  if (partial.size() != sp::partial_clauses.size()) out += " clause count";
  for (std::size_t i = 0; i < sp::partial_clauses.size(); ++i) {
    const json& e = partial.at(sp::partial_clauses[i]);
    const sp::partial_score& s = got.scores.partial[i];
    const std::pair<const char*, double> ours[] = {{"acc", s.acc},
                                                   {"rec", s.rec},
                                                   {"f1", s.f1},
                                                   {"label_total", s.label_total},
                                                   {"pred_total", s.pred_total}};
    for (const auto& [name, value] : ours) {
      if (std::fabs(e.at(name).get<double>() - value) > 1e-9)
        out += std::string(" ") + sp::partial_clauses[i] + "." + name + "=" + std::to_string(value);
    }
  }
  return out;
}

sp::exact_match_summary em_parity(const char* system) {
  sp::exact_match_summary summary;
  if (sqlmorph::test::skip_without_shared("spider exact-match parity")) return summary;
  const auto shared = *sqlmorph::test::shared_dir();
  const auto schemas = sqlmorph::core::read_spider_tables(shared / "benchmarks/spider-dev/tables.json");
  std::ifstream in(shared / "parity/spider-em" / (std::string(system) + ".jsonl"));
  REQUIRE(in);
  int total = 0;
  int matched = 0;
  int shown = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const json record = json::parse(line);
    const std::string db_id =
        std::filesystem::path(record.at("db").get<std::string>()).parent_path().filename();
    const json* expected = nullptr;
    for (const json& e : record.at("expected")) {
      if (e.at("technique") == "spider_exact_match") expected = &e;
    }
    REQUIRE_MESSAGE(expected != nullptr, record.at("id"));
    ++total;
    const auto it = schemas.find(db_id);
    REQUIRE_MESSAGE(it != schemas.end(), "no tables.json entry for " << db_id);
    const sp::exact_match_outcome got = sp::score_exact_match(
        record.at("gold").get<std::string>(), record.at("pred").get<std::string>(), it->second);
    summary.add(got.hardness, got.scores);
    const std::string diff = difference(*expected, got);
    if (diff.empty()) {
      ++matched;
    } else if (shown++ < 20) {
      std::cout << record.at("id").get<std::string>() << ":" << diff
                << "\n  gold: " << record.at("gold").get<std::string>()
                << "\n  pred: " << record.at("pred").get<std::string>() << "\n";
    }
  }
  std::cout << system << ": " << matched << " / " << total << " records match the official exact set match\n";
  CHECK(total == 972);
  CHECK(matched == total);
  return summary;
}

}  // namespace

TEST_CASE("exact-match parity: Spider dev, dail-sql-gpt4, and the official table's EM per difficulty") {
  const sp::exact_match_summary s = em_parity("dail-sql-gpt4");
  if (!sqlmorph::test::shared_dir()) return;
  // The official script's figures on these 972 pairs (../shared/parity/README.md), printed to 3 places.
  const double official[] = {0.892, 0.745, 0.569, 0.445, 0.701};
  for (std::size_t i = 0; i < sp::exact_match_levels.size(); ++i) {
    const sp::exact_match_level level = s.level(sp::exact_match_levels[i]);
    CAPTURE(sp::exact_match_levels[i]);
    CHECK(std::round(level.exact * 1000) / 1000 == doctest::Approx(official[i]).epsilon(1e-12));
  }
  CHECK(s.level("all").count == 972);
  const sp::exact_match_level all = s.level("all");
  for (std::size_t c = 0; c < sp::partial_clauses.size(); ++c) {
    const auto& p = all.partial[c];
    CHECK(p.f1 >= 0);
    CHECK(p.f1 <= 1);
    std::cout << sp::partial_clauses[c] << ": acc " << p.acc << " rec " << p.rec << " f1 " << p.f1 << "\n";
  }
}
TEST_CASE("exact-match parity: Spider dev, c3-gpt35") {
  em_parity("c3-gpt35");
}
TEST_CASE("exact-match parity: Spider dev, din-sql-gpt4") {
  em_parity("din-sql-gpt4");
}
TEST_CASE("exact-match parity: Spider dev, resdsql-3b") {
  em_parity("resdsql-3b");
}
