// `sqlmorph suite build` end to end: the official layout and manifest, determinism whatever --jobs,
// resuming, a suite that makes spider_test_suite catch a near miss single-database EX lets through,
// and clear errors for bad input.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "suite/sqlite_database.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::read_jsonl;
using test::run_sqlmorph;
using test::write_file;

namespace {

namespace fs = std::filesystem;

// Two databases in Spider's layout, and gold queries for them. On the shop's data a near miss
// (price >= 10 for price > 10) returns the gold rows: no item costs 10.
void make_benchmark(const fs::path& root) {
  fs::create_directories(root / "database/shop");
  fs::create_directories(root / "database/school");
  test::create_sqlite(root / "database/shop/shop.sqlite",
                      "CREATE TABLE category (cat_id INTEGER PRIMARY KEY, title TEXT UNIQUE);"
                      "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER, "
                      "cat_id INTEGER REFERENCES category(cat_id));"
                      "INSERT INTO category VALUES (1, 'tools'), (2, 'toys');"
                      "INSERT INTO items VALUES (1, 'hammer', 5, 1), (2, 'saw', 20, 1), (3, 'kite', 30, 2);");
  test::create_sqlite(root / "database/school/school.sqlite",
                      "CREATE TABLE student (sid INTEGER PRIMARY KEY, name TEXT, age INT, city TEXT);"
                      "INSERT INTO student VALUES (1, 'Ann', 19, 'Paris'), (2, 'Bo', 22, 'Rome');");
  write_file(
      root / "gold.sql",
      "SELECT name FROM items WHERE price > 10\tshop\n"
      "SELECT T2.title, count(*) FROM items AS T1 JOIN category AS T2 ON T1.cat_id = T2.cat_id GROUP BY "
      "T2.title\tshop\n"
      "SELECT name FROM student WHERE age > 20 ORDER BY name\tschool\n"
      "SELECT count(*) FROM student WHERE city = 'Paris'\tschool\n");
}

test::command_result build(const fs::path& root, const fs::path& out,
                           const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"suite",       "build",
                                   "--benchmark", "spider",
                                   "--gold",      (root / "gold.sql").string(),
                                   "--db-root",   (root / "database").string(),
                                   "--out",       out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_sqlmorph(args);
}

std::vector<std::string> sqlite_files(const fs::path& folder) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().extension() == ".sqlite") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// distillation.json without its timing.
json report_without_time(const fs::path& file) {
  json j = json::parse(test::file_bytes(file));
  j.erase("seconds");
  return j;
}

}  // namespace

TEST_CASE("suite build: the official layout, a manifest, the same suite whatever --jobs, resumable") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  const auto one = build(dir.path(), dir.path() / "one", {"--seed", "11", "--jobs", "1"});
  REQUIRE_MESSAGE(one.exit_code == 0, one.err);
  CHECK(one.err.find("suite: [1/2] ") != std::string::npos);
  CHECK(one.err.find("suite: [2/2] ") != std::string::npos);
  CHECK(one.out.find("2 databases") != std::string::npos);
  const auto two = build(dir.path(), dir.path() / "two", {"--seed", "11", "--jobs", "2", "--quiet"});
  REQUIRE_MESSAGE(two.exit_code == 0, two.err);
  CHECK(two.err.empty());

  for (const std::string db : {"shop", "school"}) {
    const auto files = sqlite_files(dir.path() / "one" / db);
    REQUIRE(files.size() >= 2);  // the original and at least one variant
    CHECK(files.front() == db + ".sqlite");
    CHECK(files[1] == db + "_1.sqlite");
    CHECK(test::file_bytes(dir.path() / "one" / db / (db + ".sqlite")) ==
          test::file_bytes(dir.path() / "database" / db / (db + ".sqlite")));
    CHECK(files == sqlite_files(dir.path() / "two" / db));
    for (const std::string& f : files) {
      CHECK(core::suite::dump_database(dir.path() / "one" / db / f) ==
            core::suite::dump_database(dir.path() / "two" / db / f));
      CHECK(test::file_bytes(dir.path() / "one" / db / f) == test::file_bytes(dir.path() / "two" / db / f));
    }
    CHECK(report_without_time(dir.path() / "one" / db / "distillation.json") ==
          report_without_time(dir.path() / "two" / db / "distillation.json"));
  }
  const json manifest = json::parse(test::file_bytes(dir.path() / "one/suite.json"));
  CHECK(manifest["seed"] == 11);
  CHECK(manifest["comparison"] == "spider_official_exec");
  CHECK(manifest["totals"]["databases"] == 2);
  CHECK(manifest["totals"]["gold_queries"] == 4);
  CHECK(manifest["totals"]["gold_errors"] == 0);
  CHECK(manifest["totals"]["neighbours"].get<int>() > 20);
  CHECK(manifest["totals"]["coverage"].get<double>() > 0.8);
  REQUIRE(manifest["databases"].size() == 2);
  CHECK(manifest["databases"][0]["db_id"] == "school");
  CHECK(manifest["databases"][1]["db_id"] == "shop");
  const json report = json::parse(test::file_bytes(dir.path() / "one/shop/distillation.json"));
  REQUIRE(report["golds"].size() == 2);
  CHECK(report["golds"][0]["origin"].get<std::string>().find("gold.sql:1") != std::string::npos);
  CHECK(report["golds"][0]["families"].contains("comparison"));

  // Another seed, another suite.
  const auto other = build(dir.path(), dir.path() / "other", {"--seed", "12", "-q"});
  REQUIRE_MESSAGE(other.exit_code == 0, other.err);
  CHECK(core::suite::dump_database(dir.path() / "one/shop/shop_1.sqlite") !=
        core::suite::dump_database(dir.path() / "other/shop/shop_1.sqlite"));

  // A re-run skips the databases already built and finishes an interrupted one.
  const std::string before = test::file_bytes(dir.path() / "one/shop/shop_1.sqlite");
  fs::remove_all(dir.path() / "one/school");
  fs::create_directories(dir.path() / "one/.school.partial");
  write_file(dir.path() / "one/.school.partial/school_1.sqlite", "left over");
  const auto again = build(dir.path(), dir.path() / "one", {"--seed", "11"});
  REQUIRE_MESSAGE(again.exit_code == 0, again.err);
  CHECK(again.err.find("shop: already built") != std::string::npos);
  CHECK(test::file_bytes(dir.path() / "one/shop/shop_1.sqlite") == before);
  CHECK_FALSE(fs::exists(dir.path() / "one/.school.partial"));
  CHECK(sqlite_files(dir.path() / "one/school") == sqlite_files(dir.path() / "two/school"));
  const json resumed = json::parse(test::file_bytes(dir.path() / "one/suite.json"));
  CHECK(resumed["databases"][1]["resumed"] == true);
  CHECK(resumed["databases"][0]["resumed"] == false);
  // ... but not with another seed.
  const auto mixed = build(dir.path(), dir.path() / "one", {"--seed", "3"});
  CHECK(mixed.exit_code == 1);
  CHECK(mixed.err.find("was built with seed 11, not 3") != std::string::npos);
}

TEST_CASE("suite build: spider_test_suite on the suite catches a near miss that single-database EX accepts") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  const auto built = build(dir.path(), dir.path() / "suite", {"-q"});
  REQUIRE_MESSAGE(built.exit_code == 0, built.err);
  const std::string shop = (dir.path() / "suite/shop/shop.sqlite").string();
  const auto case_line = [&](const std::string& id, const std::string& pred) {
    return json{{"id", id}, {"db", shop}, {"gold", "SELECT name FROM items WHERE price > 10"}, {"pred", pred}}
               .dump() +
           "\n";
  };
  write_file(dir.path() / "cases.jsonl",
             case_line("near_miss", "SELECT name FROM items WHERE price >= 10") +
                 case_line("equivalent", "SELECT name FROM items WHERE 10 < price") +
                 case_line("wrong", "SELECT name FROM items"));
  const auto r = run_sqlmorph({"eval", "--cases", (dir.path() / "cases.jsonl").string(), "--techniques",
                               "spider_official_exec,spider_test_suite", "--out",
                               (dir.path() / "out").string(), "--progress", "none"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::map<std::string, double> ex;
  for (const json& j : read_jsonl(dir.path() / "out/results.jsonl"))
    ex[j["id"].get<std::string>() + " " + j["technique"].get<std::string>()] = j["EX"].get<double>();
  CHECK(ex["near_miss spider_official_exec"] == 1);
  CHECK(ex["near_miss spider_test_suite"] == 0);
  CHECK(ex["equivalent spider_official_exec"] == 1);
  CHECK(ex["equivalent spider_test_suite"] == 1);
  CHECK(ex["wrong spider_official_exec"] == 0);
  CHECK(ex["wrong spider_test_suite"] == 0);
}

TEST_CASE("suite build: bad input names the file and line") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  write_file(dir.path() / "gold.sql", "SELECT name FROM items\tshop\nSELECT 1 no tab here\n");
  const auto no_tab = build(dir.path(), dir.path() / "out");
  CHECK(no_tab.exit_code == 2);
  CHECK(no_tab.err.find("gold.sql:2: expected 'SQL<TAB>db_id'") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "out"));

  write_file(dir.path() / "gold.sql", "SELECT name FROM items\tshop\nSELECT 1\tnowhere\n");
  const auto missing = build(dir.path(), dir.path() / "out");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("gold.sql:2: the database of db_id 'nowhere' is missing") != std::string::npos);
  CHECK(missing.err.find("nowhere/nowhere.sqlite") != std::string::npos);

  write_file(dir.path() / "gold.sql", "SELECT 1\t../shop\n");
  const auto escape = build(dir.path(), dir.path() / "out");
  CHECK(escape.exit_code == 2);
  CHECK(escape.err.find("gold.sql:1") != std::string::npos);

  const auto bad_benchmark =
      run_sqlmorph({"suite", "build", "--benchmark", "wikisql", "--gold", "x", "--db-root",
                    dir.path().string(), "--out", (dir.path() / "out").string()});
  CHECK(bad_benchmark.exit_code == 2);
  CHECK(bad_benchmark.err.find("--benchmark must be spider or bird") != std::string::npos);

  // A gold query that fails on its database is reported, not fatal.
  write_file(dir.path() / "gold.sql", "SELECT name FROM items\tshop\nSELECT nothing FROM items\tshop\n");
  const auto failing = build(dir.path(), dir.path() / "out", {"-q"});
  REQUIRE_MESSAGE(failing.exit_code == 0, failing.err);
  const json report = json::parse(test::file_bytes(dir.path() / "out/shop/distillation.json"));
  CHECK_FALSE(report["golds"][0].contains("gold_error"));
  CHECK(report["golds"][1]["gold_error"] == "the gold query fails on the original database");
}

TEST_CASE(
    "suite build: no variant leaves a gold query without a single answer (ties cut by ORDER BY ... LIMIT)") {
  test::temp_dir dir;
  fs::create_directories(dir.path() / "database/games");
  test::create_sqlite(
      dir.path() / "database/games/games.sqlite",
      "CREATE TABLE player (name TEXT, score INT, team TEXT);"
      "INSERT INTO player VALUES ('a', 1, 'x'), ('b', 2, 'x'), ('c', 3, 'y'), ('d', 4, 'y');");
  write_file(dir.path() / "gold.sql",
             "SELECT name FROM player WHERE score > 1 ORDER BY score DESC LIMIT 1\tgames\n"
             "SELECT team FROM player WHERE score > 1 GROUP BY team ORDER BY count(*) DESC LIMIT 1\tgames\n");
  const auto r = build(dir.path(), dir.path() / "suite", {"-q", "--max-candidates", "60"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto files = sqlite_files(dir.path() / "suite/games");
  REQUIRE(files.size() >= 2);
  for (const std::string& f : files) {
    CAPTURE(f);
    core::suite::sqlite_database db(dir.path() / "suite/games" / f,
                                    core::suite::sqlite_database::mode::read_only);
    // One name holds the top score; one team has the most players.
    CHECK(db.rows("SELECT count(DISTINCT name) FROM player WHERE score > 1 AND score = (SELECT max(score) "
                  "FROM player "
                  "WHERE score > 1)")
              .at(0)
              .at(0)
              .integer <= 1);
    CHECK(
        db.rows(
              "SELECT count(*) FROM (SELECT team FROM player WHERE score > 1 GROUP BY team HAVING count(*) = "
              "(SELECT max(n) FROM (SELECT count(*) AS n FROM player WHERE score > 1 GROUP BY team)))")
            .at(0)
            .at(0)
            .integer <= 1);
  }
  const json report = json::parse(test::file_bytes(dir.path() / "suite/games/distillation.json"));
  CHECK(report["candidates_order_dependent"].get<int>() > 0);
}

TEST_CASE("suite build: from a cases file, and from BIRD's question list") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  const std::string shop = (dir.path() / "database/shop/shop.sqlite").string();
  write_file(
      dir.path() / "cases.jsonl",
      json{{"id", "a"}, {"db", shop}, {"gold", "SELECT name FROM items WHERE price > 10"}, {"pred", ""}}
              .dump() +
          "\n" +
          json{{"id", "b"}, {"db", shop}, {"gold", "SELECT count(*) FROM items"}, {"pred", ""}}.dump() +
          "\n");
  const auto cases = run_sqlmorph({"suite", "build", "--cases", (dir.path() / "cases.jsonl").string(),
                                   "--out", (dir.path() / "from-cases").string(), "-q"});
  REQUIRE_MESSAGE(cases.exit_code == 0, cases.err);
  CHECK(fs::exists(dir.path() / "from-cases/shop/shop.sqlite"));
  const json manifest = json::parse(test::file_bytes(dir.path() / "from-cases/suite.json"));
  CHECK(manifest["benchmark"] == "cases");
  CHECK(manifest["totals"]["gold_queries"] == 2);

  write_file(
      dir.path() / "dev.json",
      json::array(
          {json{{"question_id", 0}, {"db_id", "school"}, {"SQL", "SELECT name FROM student WHERE age > 20"}},
           json{{"question_id", 1}, {"db_id", "shop"}, {"SQL", "SELECT name FROM items"}}})
          .dump());
  const auto bird = run_sqlmorph(
      {"suite", "build", "--benchmark", "bird", "--gold", (dir.path() / "dev.json").string(), "--db-root",
       (dir.path() / "database").string(), "--out", (dir.path() / "from-bird").string(), "-q"});
  REQUIRE_MESSAGE(bird.exit_code == 0, bird.err);
  CHECK(sqlite_files(dir.path() / "from-bird/school").size() >= 2);
  const json report = json::parse(test::file_bytes(dir.path() / "from-bird/school/distillation.json"));
  CHECK(report["golds"][0]["origin"].get<std::string>().find("dev.json question 0") != std::string::npos);

  write_file(dir.path() / "dev.json", json::array({json{{"question_id", 0}, {"db_id", "school"}}}).dump());
  const auto bad =
      run_sqlmorph({"suite", "build", "--benchmark", "bird", "--gold", (dir.path() / "dev.json").string(),
                    "--db-root", (dir.path() / "database").string(), "--out", (dir.path() / "bad").string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("dev.json question 0: missing field 'SQL'") != std::string::npos);
}

TEST_CASE("suite build: never writes into a folder it did not make") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  fs::create_directories(dir.path() / "mine");
  write_file(dir.path() / "mine/notes.txt", "my notes");
  const auto foreign = build(dir.path(), dir.path() / "mine", {"-q", "--max-candidates", "5"});
  CHECK(foreign.exit_code == 1);
  CHECK(foreign.err.find(
            "mine is not empty and was not made by `sqlmorph suite build` (no suite.json of one)") !=
        std::string::npos);
  CHECK(test::file_bytes(dir.path() / "mine/notes.txt") == "my notes");
  CHECK_FALSE(fs::exists(dir.path() / "mine/shop"));
  CHECK_FALSE(fs::exists(dir.path() / "mine/suite.json"));

  // Nor over a file, nor into a folder whose suite.json is another program's.
  write_file(dir.path() / "a-file", "x");
  const auto file = build(dir.path(), dir.path() / "a-file", {"-q", "--max-candidates", "5"});
  CHECK(file.exit_code == 1);
  CHECK(file.err.find("a-file is not a folder") != std::string::npos);
  fs::create_directories(dir.path() / "other");
  write_file(dir.path() / "other/suite.json", R"({"name": "someone else's"})");
  const auto other = build(dir.path(), dir.path() / "other", {"-q", "--max-candidates", "5"});
  CHECK(other.exit_code == 1);
  CHECK(other.err.find("was not made by `sqlmorph suite build`") != std::string::npos);

  // An empty folder is taken; once begun, suite.json marks it (before any database is done).
  fs::create_directories(dir.path() / "empty");
  const auto empty = build(dir.path(), dir.path() / "empty", {"-q", "--max-candidates", "5"});
  REQUIRE_MESSAGE(empty.exit_code == 0, empty.err);
  const json manifest = json::parse(test::file_bytes(dir.path() / "empty/suite.json"));
  CHECK(manifest["complete"] == true);
  CHECK(manifest["totals"]["databases"] == 2);
}

TEST_CASE("suite build: a rebuild keeps the settings the databases were built with, or is refused") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  const auto first = build(dir.path(), dir.path() / "suite", {"-q", "--max-candidates", "20"});
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const std::string before = test::file_bytes(dir.path() / "suite/suite.json");
  fs::remove_all(dir.path() / "suite/school");  // a database left to build: nothing is, either

  const auto more = build(dir.path(), dir.path() / "suite", {"-q", "--max-candidates", "21"});
  CHECK(more.exit_code == 1);
  CHECK(more.err.find("suite was built with --max-candidates 20, not 21") != std::string::npos);
  CHECK(test::file_bytes(dir.path() / "suite/suite.json") == before);
  CHECK_FALSE(fs::exists(dir.path() / "suite/school"));
  const auto other_seed =
      build(dir.path(), dir.path() / "suite", {"-q", "--max-candidates", "20", "--seed", "1"});
  CHECK(other_seed.exit_code == 1);
  CHECK(other_seed.err.find("suite was built with seed 0, not 1") != std::string::npos);
  const auto other_comparison = build(dir.path(), dir.path() / "suite",
                                      {"-q", "--max-candidates", "20", "--technique", "execution_accuracy"});
  CHECK(other_comparison.exit_code == 1);
  CHECK(other_comparison.err.find("suite was built with the comparison \"spider_official_exec\", not "
                                  "\"execution_accuracy\"") != std::string::npos);

  // The same settings complete it, and the manifest records them.
  const auto same = build(dir.path(), dir.path() / "suite", {"-q", "--max-candidates", "20"});
  REQUIRE_MESSAGE(same.exit_code == 0, same.err);
  const json manifest = json::parse(test::file_bytes(dir.path() / "suite/suite.json"));
  CHECK(manifest["max_candidates"] == 20);
  for (const char* db : {"shop", "school"}) {
    const json report = json::parse(test::file_bytes(dir.path() / "suite" / db / "distillation.json"));
    CHECK(report["max_candidates"] == 20);
  }
}

TEST_CASE("suite build: --seed, --max-candidates and --jobs out of their range are refused, never wrapped") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  // (A gold query on a missing database: a build that got past the options would stop on it.)
  const std::string gold = test::file_bytes(dir.path() / "gold.sql");
  write_file(dir.path() / "gold.sql", "SELECT 1\tnowhere\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> table = {
      {{"--max-candidates", "-1"}, "--max-candidates must be a whole number from 1 to 100000, not -1"},
      {{"--max-candidates", "0"}, "--max-candidates must be a whole number from 1 to 100000, not 0"},
      {{"--max-candidates", "100001"},
       "--max-candidates must be a whole number from 1 to 100000, not 100001"},
      {{"--max-candidates", "1e3"}, "--max-candidates must be a whole number from 1 to 100000, not 1e3"},
      {{"--seed", "-1"}, "--seed must be a whole number from 0 to 18446744073709551615, not -1"},
      {{"--seed", "18446744073709551616"},
       "--seed must be a whole number from 0 to 18446744073709551615, not 18446744073709551616"},
      {{"--seed", "0x10"}, "--seed must be a whole number from 0 to 18446744073709551615, not 0x10"},
      {{"--jobs", "0"}, "--jobs must be a whole number from 1 to 256, not 0"},
      {{"--jobs", "-1"}, "--jobs must be a whole number from 1 to 256, not -1"},
  };
  for (const auto& [options, message] : table) {
    std::vector<std::string> args = options;
    args.push_back("-q");
    const auto r = build(dir.path(), dir.path() / "out", args);
    CAPTURE(options.front());
    CAPTURE(options.back());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("sqlmorph: error: " + message) != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir.path() / "out"));

  // The largest seed is taken as it is written; leading zeros are decimal, not octal.
  write_file(dir.path() / "gold.sql", gold);
  const auto largest = build(dir.path(), dir.path() / "largest",
                             {"-q", "--max-candidates", "3", "--seed", "18446744073709551615"});
  REQUIRE_MESSAGE(largest.exit_code == 0, largest.err);
  CHECK(json::parse(test::file_bytes(dir.path() / "largest/suite.json"))["seed"].get<std::uint64_t>() ==
        18446744073709551615ULL);
  const auto zeros =
      build(dir.path(), dir.path() / "zeros", {"-q", "--max-candidates", "010", "--seed", "010"});
  REQUIRE_MESSAGE(zeros.exit_code == 0, zeros.err);
  const json manifest = json::parse(test::file_bytes(dir.path() / "zeros/suite.json"));
  CHECK(manifest["seed"] == 10);
  CHECK(manifest["max_candidates"] == 10);
}

TEST_CASE("suite build: --databases builds only those, and the manifest lists every database built") {
  test::temp_dir dir;
  make_benchmark(dir.path());
  // A database no one asked for may be missing.
  write_file(dir.path() / "gold.sql", test::file_bytes(dir.path() / "gold.sql") + "SELECT 1\tnowhere\n");
  const auto shop = build(dir.path(), dir.path() / "suite", {"--databases", "shop", "--max-candidates", "5"});
  REQUIRE_MESSAGE(shop.exit_code == 0, shop.err);
  CHECK(shop.err.find("suite: [1/1] shop: ") != std::string::npos);
  CHECK(fs::exists(dir.path() / "suite/shop/shop.sqlite"));
  CHECK_FALSE(fs::exists(dir.path() / "suite/school"));
  json manifest = json::parse(test::file_bytes(dir.path() / "suite/suite.json"));
  REQUIRE(manifest["databases"].size() == 1);
  CHECK(manifest["databases"][0]["db_id"] == "shop");
  CHECK(manifest["totals"]["gold_queries"] == 2);

  const auto school =
      build(dir.path(), dir.path() / "suite", {"--databases", "school", "--max-candidates", "5", "-q"});
  REQUIRE_MESSAGE(school.exit_code == 0, school.err);
  manifest = json::parse(test::file_bytes(dir.path() / "suite/suite.json"));
  REQUIRE(manifest["databases"].size() == 2);
  CHECK(manifest["databases"][0]["db_id"] == "school");
  CHECK(manifest["databases"][0]["resumed"] == false);
  CHECK(manifest["databases"][1]["db_id"] == "shop");
  CHECK(manifest["databases"][1]["resumed"] == true);
  CHECK(manifest["totals"]["databases"] == 2);
  CHECK(manifest["totals"]["gold_queries"] == 4);

  const auto unknown = build(dir.path(), dir.path() / "suite", {"--databases", "shop,shopp", "-q"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--databases: no gold query of " + (dir.path() / "gold.sql").string() +
                         " is on 'shopp'; its databases: nowhere, school, shop") != std::string::npos);
  // The missing database, asked for, is an error as without --databases.
  const auto missing = build(dir.path(), dir.path() / "suite", {"--databases", "nowhere", "-q"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("the database of db_id 'nowhere' is missing") != std::string::npos);
}
