// Spider's exact set match (sqlmorph/spider_exact_match.hpp) and the tables.json reader: the schema
// path of the process_sql parser, the rebuild with foreign keys, and the partial scores.

#include <doctest/doctest.h>

#include <sqlmorph/spider_exact_match.hpp>

#include "datasets/spider_tables.hpp"
#include "errors.hpp"
#include "test_support.hpp"

namespace sp = sqlmorph::spider;

namespace {

// Two tables with a foreign key singer_in_concert.singer_id -> singer.Singer_ID (names mixed-case as
// Spider writes them), and a third table sharing no key.
const char* tables_json = R"([{
  "db_id": "concert",
  "table_names_original": ["Singer", "singer_in_concert", "stadium"],
  "column_names_original": [[-1, "*"], [0, "Singer_ID"], [0, "Name"], [0, "Age"],
                            [1, "concert_ID"], [1, "Singer_ID"], [2, "Stadium_ID"], [2, "Name"]],
  "foreign_keys": [[5, 1]]
}])";

const sp::database_schema& concert() {
  static const auto schemas = sqlmorph::core::parse_spider_tables(tables_json, "tables.json");
  return schemas.at("concert");
}

sp::exact_match_outcome em(const char* gold, const char* pred) {
  return sp::score_exact_match(gold, pred, concert());
}

int f1_of(const sp::exact_match_outcome& o, std::string_view clause) {
  for (std::size_t i = 0; i < sp::partial_clauses.size(); ++i) {
    if (clause == sp::partial_clauses[i]) return o.scores.partial[i].f1;
  }
  FAIL("no clause " << clause);
  return -1;
}

}  // namespace

TEST_CASE("tables.json: names lower-cased, `*` is __all__, foreign keys map to the smallest column id") {
  const sp::database_schema& db = concert();
  REQUIRE(db.tables.tables().size() == 3);
  CHECK(db.tables.tables()[0].first == "singer");
  CHECK(db.tables.tables()[0].second == std::vector<std::string>{"singer_id", "name", "age"});
  CHECK(db.tables.has_id("singer_in_concert.singer_id"));
  CHECK(db.tables.has_id("stadium"));
  CHECK_FALSE(db.tables.has_id("stadium.age"));
  REQUIRE(db.foreign_keys.size() == 2);
  CHECK(db.foreign_keys.at("__singer_in_concert.singer_id__") == "__singer.singer_id__");
  CHECK(db.foreign_keys.at("__singer.singer_id__") == "__singer.singer_id__");
}

TEST_CASE("tables.json: a key pair joins the first group holding either key, groups are not merged") {
  sp::tables_entry e;
  e.table_names_original = {"t"};
  e.column_names_original = {{-1, "*"}, {0, "a"}, {0, "b"}, {0, "c"}, {0, "d"}};
  e.foreign_keys = {{1, 2}, {3, 4}, {2, 3}};  // {1,2,3} then {3,4}: column 3 is mapped by the later group
  const sp::database_schema db = sp::make_database_schema(e);
  CHECK(db.foreign_keys.at("__t.b__") == "__t.a__");
  CHECK(db.foreign_keys.at("__t.c__") == "__t.c__");
  CHECK(db.foreign_keys.at("__t.d__") == "__t.c__");
}

TEST_CASE("tables.json: bad input is an input_error naming the file and the entry") {
  using sqlmorph::core::parse_spider_tables;
  using sqlmorph::test::usage_error_of;
  CHECK(usage_error_of([] { parse_spider_tables("{", "t.json"); }).find("t.json: not JSON") == 0);
  CHECK(usage_error_of([] { parse_spider_tables("{}", "t.json"); }).find("list of databases") !=
        std::string::npos);
  const std::string missing = usage_error_of([] { parse_spider_tables(R"([{"db_id": "x"}])", "t.json"); });
  CHECK(missing.find("t.json: entry 0 (x)") == 0);
  const std::string range = usage_error_of([] {
    parse_spider_tables(R"([{"db_id": "x", "table_names_original": ["t"], "column_names_original": [[3, "a"]],
                             "foreign_keys": []}])",
                        "t.json");
  });
  CHECK(range.find("out of range") != std::string::npos);
  const std::string twice = usage_error_of([] {
    parse_spider_tables(
        R"([{"db_id": "x", "table_names_original": [], "column_names_original": [], "foreign_keys": []},
                            {"db_id": "x", "table_names_original": [], "column_names_original": [], "foreign_keys": []}])",
        "t.json");
  });
  CHECK(twice.find("entry 1 (x): db_id given twice") != std::string::npos);
}

TEST_CASE("parse with a schema: names resolve to ids, aliases to their tables, unknown names fail") {
  const sp::parse_result r =
      sp::parse("SELECT T1.Name FROM Singer AS T1 WHERE T1.age > 3", &concert().tables);
  REQUIRE(r.sql);
  CHECK(r.sql->from_tables.at(0).table == "__singer__");
  CHECK(r.sql->select.items.at(0).second.first.column == "__singer.name__");
  CHECK(std::get<sp::cond_unit>(r.sql->where.at(0)).left.first.column == "__singer.age__");
  const sp::parse_result star = sp::parse("SELECT count(*) FROM singer", &concert().tables);
  REQUIRE(star.sql);
  CHECK(star.sql->select.items.at(0).second.first.column == "__all__");
  // A bare column resolves against the FROM tables.
  const sp::parse_result bare = sp::parse("SELECT age FROM singer", &concert().tables);
  REQUIRE(bare.sql);
  CHECK(bare.sql->select.items.at(0).second.first.column == "__singer.age__");
  CHECK_FALSE(sp::parse("SELECT height FROM singer", &concert().tables).sql);
  CHECK_FALSE(sp::parse("SELECT name FROM nosuch", &concert().tables).sql);
  // Without a schema any name is accepted.
  CHECK(sp::parse("SELECT height FROM nosuch", nullptr).sql);
}

TEST_CASE("exact match ignores values, DISTINCT, keyword case and the LIMIT number") {
  CHECK(em("SELECT name FROM singer WHERE age > 20", "select NAME from SINGER where AGE > 65").scores.exact);
  CHECK(em("SELECT DISTINCT name FROM singer", "SELECT name FROM singer").scores.exact);
  CHECK(em("SELECT name FROM singer ORDER BY age LIMIT 1", "SELECT name FROM singer ORDER BY age LIMIT 3")
            .scores.exact);
  CHECK_FALSE(em("SELECT name FROM singer ORDER BY age", "SELECT name FROM singer ORDER BY age LIMIT 3")
                  .scores.exact);
  CHECK_FALSE(
      em("SELECT name FROM singer ORDER BY age", "SELECT name FROM singer ORDER BY age DESC").scores.exact);
}

TEST_CASE("exact match: select and where are sets, FROM tables a multiset") {
  CHECK(em("SELECT name, age FROM singer", "SELECT age, name FROM singer").scores.exact);
  CHECK(em("SELECT name FROM singer WHERE age > 1 AND name = 'x'",
           "SELECT name FROM singer WHERE name = 'y' AND age > 2")
            .scores.exact);
  const auto o = em("SELECT name FROM singer WHERE age > 1 AND name = 'x'",
                    "SELECT name FROM singer WHERE age > 1 OR name = 'x'");
  CHECK_FALSE(o.scores.exact);
  CHECK(f1_of(o, "where") == 1);
  CHECK(f1_of(o, "and/or") == 0);
  CHECK(f1_of(o, "keywords") == 0);  // `or`
  CHECK_FALSE(em("SELECT T1.name FROM singer AS T1 JOIN stadium AS T2 ON T1.age = T2.stadium_id",
                 "SELECT name FROM singer")
                  .scores.exact);
}

TEST_CASE("exact match: a column maps to its foreign-key representative only when its table is in FROM") {
  // singer_in_concert.singer_id and singer.singer_id are one key: equal once rebuilt.
  const char* joined =
      "SELECT T2.singer_id FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id";
  const char* other =
      "SELECT T1.singer_id FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id";
  CHECK(em(joined, other).scores.exact);
  // The select clauses agree once rebuilt (singer_in_concert is in its FROM); the FROM tables do not.
  const auto alone = em("SELECT singer_id FROM singer", "SELECT singer_id FROM singer_in_concert");
  CHECK(f1_of(alone, "select") == 1);
  CHECK_FALSE(alone.scores.exact);
  // A UNION part is rebuilt with the FROM tables of the outer query: here stadium only, so
  // singer_in_concert.singer_id keeps its own id and the parts differ.
  const auto un = em("SELECT name FROM stadium UNION SELECT singer_id FROM singer",
                     "SELECT name FROM stadium UNION SELECT singer_id FROM singer_in_concert");
  CHECK(f1_of(un, "IUEN") == 0);
  CHECK(em("SELECT name FROM singer UNION SELECT singer_id FROM singer",
           "SELECT name FROM singer UNION SELECT singer_id FROM singer_in_concert")
            .scores.partial[8]
            .f1 == 0);  // the nested FROM tables differ
}

TEST_CASE("exact match: group, having, order and nested parts") {
  CHECK(em("SELECT age, count(*) FROM singer GROUP BY age HAVING count(*) > 1",
           "SELECT age, count(*) FROM singer GROUP BY age HAVING count(*) > 5")
            .scores.exact);
  const auto having = em("SELECT age, count(*) FROM singer GROUP BY age HAVING count(*) > 1",
                         "SELECT age, count(*) FROM singer GROUP BY age");
  CHECK(f1_of(having, "group(no Having)") == 1);
  CHECK(f1_of(having, "group") == 0);  // both group by the same columns, but the HAVING differs
  CHECK_FALSE(having.scores.exact);
  CHECK(f1_of(having, "keywords") == 0);
  const auto iuen = em("SELECT name FROM singer INTERSECT SELECT name FROM stadium",
                       "SELECT name FROM singer UNION SELECT name FROM stadium");
  CHECK(f1_of(iuen, "IUEN") == 0);
  CHECK_FALSE(iuen.scores.exact);
  CHECK(em("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)",
           "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer WHERE age > 3)")
            .scores.exact == false);  // the nested query keeps its WHERE (values go, conditions stay)
}

TEST_CASE("exact match: the prediction's `value` becomes 1, an unparsable prediction is the empty SQL") {
  const auto v = em("SELECT name FROM singer WHERE age > 3", "SELECT name FROM singer WHERE age > value");
  CHECK(v.pred_parsed);
  CHECK(v.scores.exact);
  const auto bad = em("SELECT name FROM singer", "SELECT height FROM singer");
  CHECK_FALSE(bad.pred_parsed);
  CHECK_FALSE(bad.pred_error.empty());
  CHECK_FALSE(bad.scores.exact);
  CHECK(bad.scores.partial[0].pred_total == 0);
  CHECK(bad.scores.partial[0].label_total == 1);
  CHECK(em("SELECT name FROM singer", "").pred_parsed == false);
  CHECK(em("SELECT name FROM singer", "SELECT name FROM singer").hardness == "easy");
  CHECK_FALSE(em("SELECT height FROM singer", "SELECT name FROM singer").gold_error.empty());
}

TEST_CASE("Spider dev tables.json: every database reads, and its foreign keys are mapped") {
  if (sqlmorph::test::skip_without_shared("spider tables.json")) return;
  const auto schemas =
      sqlmorph::core::read_spider_tables(*sqlmorph::test::shared_dir() / "benchmarks/spider-dev/tables.json");
  REQUIRE(schemas.count("concert_singer") == 1);
  const sp::database_schema& cs = schemas.at("concert_singer");
  CHECK(cs.foreign_keys.at("__singer_in_concert.singer_id__") == "__singer.singer_id__");
  CHECK(cs.tables.has_id("concert.stadium_id"));
}
