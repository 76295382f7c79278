// Spider difficulty from the gold SQL, as the official evaluator computes it.

#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <map>

#include "datasets/spider_hardness.hpp"
#include "test_support.hpp"

using sqlmorph::core::spider_hardness;

TEST_CASE("difficulty of hand-picked queries follows eval_hardness") {
  CHECK(spider_hardness("SELECT count(*) FROM singer") == "easy");
  CHECK(spider_hardness("SELECT name FROM singer WHERE age > 20") == "easy");
  CHECK(spider_hardness("SELECT name, country FROM singer") == "medium");  // two select columns
  CHECK(spider_hardness("SELECT name FROM singer ORDER BY age DESC LIMIT 1") == "medium");  // order + limit
  CHECK(spider_hardness("SELECT T2.name FROM a AS T1 JOIN b AS T2 ON T1.id = T2.id WHERE T1.x = 1") ==
        "medium");
  CHECK(spider_hardness("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)") == "hard");
  CHECK(spider_hardness("SELECT name FROM a INTERSECT SELECT name FROM b") == "hard");
  CHECK(spider_hardness("SELECT T1.a, count(*) FROM x AS T1 JOIN y AS T2 ON T1.k = T2.k GROUP BY T1.a "
                        "ORDER BY count(*) DESC LIMIT 1") == "extra");
  CHECK(spider_hardness("SELECT name FROM t WHERE a LIKE '%x%' OR b = 1") == "hard");
  CHECK(spider_hardness("this is not sql").empty());
  CHECK(spider_hardness("SELECT a FROM t1, t2").empty());  // outside the official grammar
}

TEST_CASE("Spider dev gold: 248 easy, 446 medium, 174 hard, 166 extra, as the official evaluator counts") {
  if (sqlmorph::test::skip_without_shared("spider hardness")) return;
  std::ifstream in(*sqlmorph::test::shared_dir() / "benchmarks/spider-dev/dev_gold.sql");
  std::map<std::string, int> counts;
  for (std::string line; std::getline(in, line);) {
    const std::string sql = line.substr(0, line.rfind('\t'));
    const std::string h = spider_hardness(sql);
    if (h.empty()) std::cout << "unparsed: " << sql << "\n";
    ++counts[h.empty() ? "unknown" : h];
  }
  CHECK(counts["easy"] == 248);
  CHECK(counts["medium"] == 446);
  CHECK(counts["hard"] == 174);
  CHECK(counts["extra"] == 166);
  CHECK(counts["unknown"] == 0);
}
