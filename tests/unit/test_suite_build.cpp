// The pieces of `sqlmorph suite build` (core/suite/): the seeded generator, neighbour queries of
// each family, and fuzzed databases that keep the schema's keys.

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "suite/database_fuzzer.hpp"
#include "suite/neighbour_queries.hpp"
#include "suite/seeded_random.hpp"
#include "suite/sqlite_database.hpp"
#include "test_support.hpp"

namespace test = sqlmorph::test;
using namespace sqlmorph::core::suite;

namespace {

neighbour_schema singers() {
  neighbour_schema s;
  s.tables.push_back({"singer",
                      {{"singer_id", value_kind::integer},
                       {"name", value_kind::text},
                       {"country", value_kind::text},
                       {"age", value_kind::integer}}});
  s.tables.push_back({"concert", {{"concert_id", value_kind::integer}, {"singer_id", value_kind::integer}}});
  return s;
}

// Runs of spaces as one: an edit may leave two spaces where a token was.
std::string squeeze(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::set<std::string> neighbours_of(const std::string& gold, const std::string& family = "") {
  seeded_random random(7);
  std::set<std::string> out;
  for (const neighbour_query& n : neighbour_queries(gold, singers(), random))
    if (family.empty() || n.family == family) out.insert(squeeze(n.sql));
  return out;
}

bool has(const std::set<std::string>& s, const std::string& sql) {
  return s.count(sql) > 0;
}

std::int64_t count_of(sqlite_database& db, const std::string& sql) {
  return db.rows(sql).at(0).at(0).integer;
}

}  // namespace

TEST_CASE("seeded_random: the same seed gives the same numbers, within the asked bounds") {
  seeded_random a(42);
  seeded_random b(42);
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t x = a.between(-3, 5);
    CHECK(x == b.between(-3, 5));
    CHECK(x >= -3);
    CHECK(x <= 5);
  }
  // mt19937_64's 10000th output is fixed by the standard: the engine is the standard one.
  std::mt19937_64 reference;
  reference.discard(9999);
  seeded_random standard(5489u);
  for (int i = 0; i < 9999; ++i) standard.next();
  CHECK(standard.next() == reference());
  CHECK(seeded_random::derive(1, "concert_singer") == seeded_random::derive(1, "concert_singer"));
  CHECK(seeded_random::derive(1, "concert_singer") != seeded_random::derive(2, "concert_singer"));
  CHECK(seeded_random::derive(1, "concert_singer") != seeded_random::derive(1, "pets_1"));
}

TEST_CASE("neighbour queries: drops of DISTINCT, a conjunct, ORDER BY and LIMIT") {
  const std::string gold =
      "SELECT DISTINCT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age DESC LIMIT 3";
  const auto drops = neighbours_of(gold, "drop");
  CHECK(
      has(drops, "SELECT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age DESC LIMIT 3"));
  CHECK(has(drops, "SELECT DISTINCT name FROM singer WHERE country = 'France' ORDER BY age DESC LIMIT 3"));
  CHECK(has(drops, "SELECT DISTINCT name FROM singer WHERE age > 20 ORDER BY age DESC LIMIT 3"));
  CHECK(has(drops, "SELECT DISTINCT name FROM singer WHERE age > 20 AND country = 'France' LIMIT 3"));
  CHECK(
      has(drops, "SELECT DISTINCT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age DESC"));
  // A WHERE with one condition is dropped whole; so is GROUP BY.
  CHECK(has(neighbours_of("SELECT name FROM singer WHERE age > 20", "drop"), "SELECT name FROM singer"));
  CHECK(has(neighbours_of("SELECT country, count(*) FROM singer GROUP BY country", "drop"),
            "SELECT country, count(*) FROM singer"));
  // The gold query itself is never a neighbour.
  CHECK_FALSE(has(neighbours_of(gold), gold));
}

TEST_CASE("neighbour queries: replacements within each family") {
  const std::string gold = "SELECT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age DESC";
  const auto cmp = neighbours_of(gold, "comparison");
  CHECK(has(cmp, "SELECT name FROM singer WHERE age < 20 AND country = 'France' ORDER BY age DESC"));
  CHECK(has(cmp, "SELECT name FROM singer WHERE age >= 20 AND country = 'France' ORDER BY age DESC"));
  CHECK(has(cmp, "SELECT name FROM singer WHERE age > 20 AND country != 'France' ORDER BY age DESC"));
  CHECK(cmp.size() == 10);  // five others for each of the two operators
  CHECK(neighbours_of(gold, "order") ==
        std::set<std::string>{
            "SELECT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age ASC"});
  CHECK(neighbours_of(gold, "logic") ==
        std::set<std::string>{
            "SELECT name FROM singer WHERE age > 20 OR country = 'France' ORDER BY age DESC"});
  CHECK(neighbours_of("SELECT max(age) FROM singer", "aggregate") ==
        std::set<std::string>{"SELECT COUNT(age) FROM singer", "SELECT SUM(age) FROM singer",
                              "SELECT AVG(age) FROM singer", "SELECT MIN(age) FROM singer"});
  CHECK(neighbours_of("SELECT age + 1 FROM singer", "arithmetic") ==
        std::set<std::string>{"SELECT age - 1 FROM singer", "SELECT age * 1 FROM singer",
                              "SELECT age / 1 FROM singer"});
  // A star, a unary minus and COUNT(*) are no arithmetic.
  CHECK(neighbours_of("SELECT * FROM singer WHERE age > -1", "arithmetic").empty());
  CHECK(neighbours_of("SELECT count(*) FROM singer", "arithmetic").empty());
  CHECK(neighbours_of("SELECT name FROM singer WHERE name LIKE '%a%'", "like") ==
        std::set<std::string>{"SELECT name FROM singer WHERE name NOT LIKE '%a%'"});
  CHECK(neighbours_of("SELECT name FROM singer WHERE name NOT LIKE '%a%'", "like") ==
        std::set<std::string>{"SELECT name FROM singer WHERE name LIKE '%a%'"});
  CHECK(
      neighbours_of("SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM concert)", "in") ==
      std::set<std::string>{"SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM concert)"});
  CHECK(neighbours_of("SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM concert)", "in") ==
        std::set<std::string>{
            "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM concert)"});
  // BETWEEN's AND is not a conjunction.
  CHECK(neighbours_of("SELECT name FROM singer WHERE age BETWEEN 20 AND 30", "logic").empty());
  CHECK(has(neighbours_of("SELECT name FROM singer WHERE age BETWEEN 20 AND 30 AND country = 'x'", "logic"),
            "SELECT name FROM singer WHERE age BETWEEN 20 AND 30 OR country = 'x'"));
}

TEST_CASE("neighbour queries: columns of a compatible kind from the query's tables") {
  const auto cols = neighbours_of("SELECT name FROM singer WHERE age > 20", "column");
  // name (text) → country; age (integer) → singer_id; never concert_id (its table is not queried).
  CHECK(cols == std::set<std::string>{"SELECT country FROM singer WHERE age > 20",
                                      "SELECT name FROM singer WHERE singer_id > 20"});
  // Qualified columns are replaced after the dot; aliases and table names are left alone.
  const auto qualified = neighbours_of("SELECT T1.name AS n FROM singer AS T1", "column");
  CHECK(qualified == std::set<std::string>{"SELECT T1.country AS n FROM singer AS T1"});
}

TEST_CASE("neighbour queries: constants perturbed") {
  const auto numbers = neighbours_of("SELECT name FROM singer WHERE age > 20", "number");
  CHECK(has(numbers, "SELECT name FROM singer WHERE age > 19"));
  CHECK(has(numbers, "SELECT name FROM singer WHERE age > 21"));
  CHECK(numbers.size() >= 2);  // and a random one (which may repeat one of them)
  CHECK(neighbours_of("SELECT name FROM singer WHERE age > 2.5", "number") ==
        std::set<std::string>{"SELECT name FROM singer WHERE age > 2.49",
                              "SELECT name FROM singer WHERE age > 2.51"});
  CHECK(neighbours_of("SELECT name FROM singer WHERE country = 'France'", "string") ==
        std::set<std::string>{"SELECT name FROM singer WHERE country = '%France%'",
                              "SELECT name FROM singer WHERE country = 'rance'",
                              "SELECT name FROM singer WHERE country = 'Franc'"});
  // Spider's double-quoted strings are constants too, but a double-quoted column is a column.
  CHECK(has(neighbours_of("SELECT name FROM singer WHERE country = \"UK\"", "string"),
            "SELECT name FROM singer WHERE country = \"U\""));
  CHECK(neighbours_of("SELECT \"name\" FROM singer", "string").empty());
  CHECK(has(neighbours_of("SELECT name FROM singer WHERE name LIKE '%an%'", "string"),
            "SELECT name FROM singer WHERE name LIKE 'an'"));
  // The same generator state gives the same neighbours.
  seeded_random a(3);
  seeded_random b(3);
  const auto x = neighbour_queries("SELECT name FROM singer WHERE age > 20", singers(), a);
  const auto y = neighbour_queries("SELECT name FROM singer WHERE age > 20", singers(), b);
  REQUIRE(x.size() == y.size());
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(x[i].sql == y[i].sql);
}

TEST_CASE("fuzzed databases keep primary keys, unique constraints and foreign keys, parents first") {
  test::temp_dir dir;
  const auto original = dir.path() / "shop.sqlite";
  // The child is declared before its parent, and one table refers to itself.
  test::create_sqlite(
      original,
      "CREATE TABLE line (order_id INTEGER NOT NULL REFERENCES orders(id), item TEXT NOT NULL, "
      "qty INT, PRIMARY KEY (order_id, item));"
      "CREATE TABLE orders (id INTEGER PRIMARY KEY, code TEXT UNIQUE NOT NULL, placed DATE, "
      "customer INT REFERENCES customer(cid), price REAL);"
      "CREATE TABLE customer (cid INT PRIMARY KEY, name VARCHAR(20), boss INT REFERENCES "
      "customer(cid), active BOOLEAN);"
      "INSERT INTO customer VALUES (1, 'Ann', NULL, 1), (2, 'Bob', 1, 0);"
      "INSERT INTO orders VALUES (10, 'A-1', '2020-01-02', 1, 9.5), (11, 'A-2', '2021-05-06', 2, "
      "20.25);"
      "INSERT INTO line VALUES (10, 'pen', 2), (11, 'ink', 1);");
  sqlite_database db(original, sqlite_database::mode::read_only);
  const fuzz_plan plan = plan_fuzzing(db, {"SELECT name FROM customer WHERE name = 'Zed'"});
  std::vector<std::string> order;
  for (const std::size_t t : plan.fill_order) order.push_back(plan.schema.tables[t].name);
  CHECK(order == std::vector<std::string>{"customer", "orders", "line"});
  const neighbour_schema kinds = schema_for_neighbours(plan);
  CHECK(kinds.tables[1].columns[2].kind == value_kind::date);
  CHECK(kinds.tables[1].columns[4].kind == value_kind::real);
  CHECK(kinds.tables[2].columns[3].kind == value_kind::boolean);
  // The gold query's constant joins the name column's pool.
  bool zed = false;
  for (const sql_value& v : plan.generators[2][1].pool()) zed = zed || v.text == "Zed";
  CHECK(zed);

  std::size_t rows = 0;
  for (std::size_t c = 0; c < 12; ++c) {
    const auto file = dir.path() / ("fuzzed-" + std::to_string(c) + ".sqlite");
    seeded_random random(seeded_random::derive(5, "shop " + std::to_string(c)));
    write_fuzzed_database(plan, file, random, c);
    sqlite_database f(file, sqlite_database::mode::read_only);
    CHECK(f.rows("PRAGMA foreign_key_check").empty());
    CHECK(count_of(f,
                   "SELECT count(*) FROM orders WHERE customer IS NOT NULL AND customer NOT IN (SELECT cid "
                   "FROM customer)") == 0);
    CHECK(count_of(f, "SELECT count(*) FROM line WHERE order_id NOT IN (SELECT id FROM orders)") == 0);
    CHECK(count_of(f,
                   "SELECT count(*) FROM customer WHERE boss IS NOT NULL AND boss NOT IN (SELECT cid FROM "
                   "customer)") == 0);
    CHECK(count_of(f, "SELECT count(*) - count(DISTINCT code) FROM orders") == 0);
    CHECK(count_of(f, "SELECT count(*) FROM orders WHERE code IS NULL") == 0);
    CHECK(count_of(f, "SELECT count(*) - count(DISTINCT cid) FROM customer") == 0);
    CHECK(
        count_of(
            f, "SELECT count(*) FROM (SELECT order_id, item FROM line GROUP BY 1, 2 HAVING count(*) > 1)") ==
        0);
    CHECK(count_of(f, "SELECT count(*) FROM customer") >= 1);
    rows += static_cast<std::size_t>(count_of(f, "SELECT count(*) FROM line"));
    // The tables' schema is the original's.
    CHECK(f.rows("SELECT sql FROM sqlite_master ORDER BY name").size() ==
          db.rows("SELECT sql FROM sqlite_master ORDER BY name").size());
  }
  CHECK(rows > 12);  // sizes vary up to 30 rows a table

  // Same seed, same database; another seed, another.
  const auto one = dir.path() / "one.sqlite";
  const auto two = dir.path() / "two.sqlite";
  const auto three = dir.path() / "three.sqlite";
  seeded_random r1(99);
  seeded_random r2(99);
  seeded_random r3(100);
  write_fuzzed_database(plan, one, r1, 3);
  write_fuzzed_database(plan, two, r2, 3);
  write_fuzzed_database(plan, three, r3, 3);
  CHECK(dump_database(one) == dump_database(two));
  CHECK(test::file_bytes(one) == test::file_bytes(two));
  CHECK(dump_database(one) != dump_database(three));
}

TEST_CASE("fuzzed databases from an empty original: values from the declared types alone") {
  test::temp_dir dir;
  const auto original = dir.path() / "empty.sqlite";
  test::create_sqlite(
      original,
      "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT, born DATE, at TIME, score REAL, ok BOOL);");
  sqlite_database db(original, sqlite_database::mode::read_only);
  const fuzz_plan plan = plan_fuzzing(db, {});
  const auto file = dir.path() / "fuzzed.sqlite";
  seeded_random random(1);
  write_fuzzed_database(plan, file, random, 3);
  sqlite_database f(file, sqlite_database::mode::read_only);
  CHECK(count_of(f, "SELECT count(*) FROM t") >= 1);
  CHECK(count_of(f,
                 "SELECT count(*) FROM t WHERE born IS NOT NULL AND born NOT GLOB "
                 "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'") == 0);
  CHECK(
      count_of(
          f,
          "SELECT count(*) FROM t WHERE at IS NOT NULL AND at NOT GLOB '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]'") ==
      0);
  CHECK(count_of(f, "SELECT count(*) FROM t WHERE ok IS NOT NULL AND ok NOT IN (0, 1)") == 0);
  CHECK(count_of(f, "SELECT count(*) FROM t WHERE score IS NOT NULL AND typeof(score) != 'real'") == 0);
}
