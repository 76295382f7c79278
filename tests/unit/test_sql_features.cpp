// SQL features (eval/sql_features.hpp) read from tokens: what each counts, what never counts
// (strings, comments, quoted names), nesting, windows, the yes/no slices and the JSON round trip.

#include <doctest/doctest.h>

#include "eval/sql_features.hpp"

using namespace sqlmorph::core;

TEST_CASE("sql features: joins, tables, conditions, clauses") {
  const sql_features f = features_of(
      "SELECT T1.name, count(*) FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.singer_id "
      "WHERE T1.age > 20 AND T2.year BETWEEN 2014 AND 2015 GROUP BY T1.name HAVING count(*) >= 2 "
      "ORDER BY T1.name DESC LIMIT 3");
  CHECK(f.joins == 1);
  CHECK(f.tables == 2);
  CHECK(f.aggregates == 2);
  CHECK(f.conditions == 4);  // =, >, BETWEEN, >=
  CHECK(f.group_by);
  CHECK(f.having);
  CHECK(f.order_by);
  CHECK(f.limit);
  CHECK_FALSE(f.distinct);
  CHECK(f.subqueries == 0);
  CHECK(f.nesting_depth == 0);
  CHECK(feature_mask(f) == (1u << 0 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 7));
}

TEST_CASE("sql features: comma joins, subqueries and their depth, set operations") {
  const sql_features f = features_of(
      "SELECT name FROM a, b, \"c\" WHERE a.x = b.x AND a.y IN (SELECT y FROM d WHERE z = (SELECT max(z) "
      "FROM "
      "e)) UNION SELECT name FROM a EXCEPT SELECT name FROM f");
  CHECK(f.joins == 2);
  CHECK(f.tables == 6);  // a, b, c, d, e, f
  CHECK(f.subqueries == 2);
  CHECK(f.nesting_depth == 2);
  CHECK(f.set_operations == 2);
  CHECK(f.aggregates == 1);
  CHECK(f.conditions == 3);  // =, IN, =
}

TEST_CASE("sql features: strings, comments and quoted names never count") {
  const sql_features f = features_of(
      "SELECT 'JOIN x GROUP BY y', \"order\" -- ORDER BY z\nFROM t /* LIMIT 1 UNION */ WHERE name LIKE "
      "'%a%'");
  CHECK(f.joins == 0);
  CHECK_FALSE(f.group_by);
  CHECK_FALSE(f.order_by);
  CHECK_FALSE(f.limit);
  CHECK(f.set_operations == 0);
  CHECK(f.like);
  CHECK(f.conditions == 1);
  CHECK(f.tables == 1);
}

TEST_CASE("sql features: windows, CASE, DISTINCT, and ORDER BY inside OVER is the window order") {
  const sql_features f = features_of(
      "SELECT DISTINCT name, rank() OVER (PARTITION BY dept ORDER BY pay DESC), CASE WHEN pay > 10 THEN 1 "
      "ELSE 0 "
      "END FROM staff");
  CHECK(f.window_functions == 1);
  CHECK_FALSE(f.order_by);
  CHECK(f.distinct);
  CHECK(f.case_when);
  CHECK(has_feature(f, 8));
  CHECK(has_feature(f, 10));
  CHECK(has_feature(f, 11));
  const sql_features g = features_of("SELECT a FROM t ORDER BY (SELECT 1) , a; SELECT b FROM u JOIN v");
  CHECK(g.order_by);
  CHECK(g.subqueries == 1);
  CHECK(g.joins == 0);  // only the first statement
}

TEST_CASE("sql features: an empty or broken query has none, and the JSON round trip") {
  const sql_features none = features_of("");
  CHECK(feature_mask(none) == 0);
  const sql_features broken = features_of("SELECT ((( FROM WHERE ) ) ) ) 'unterminated");
  CHECK(broken.tables == 0);
  const sql_features f =
      features_of("SELECT count(*) FROM a JOIN b ON a.i = b.i GROUP BY a.k HAVING sum(x) > 1");
  sql_features back;
  REQUIRE(features_from_json(nlohmann::json::parse(features_json(f).dump()), back));
  CHECK(features_json(back) == features_json(f));
  CHECK_FALSE(features_from_json(nlohmann::json::array(), back));
  CHECK_FALSE(features_from_json(nlohmann::json{{"joins", 1}}, back));
}
