// Whole runs on a real server: hostile predictions end as statuses within the time limit and leave
// the data as it was; a server that dies mid-run gives backend_error and the run still finishes.

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;

namespace {

using test::read_jsonl;

std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

// Loads the demo database into `dbname` on the server `conninfo_base` (without dbname) names,
// readable by `role` (and, with `worker_roles`, by login roles ROLE_1..ROLE_N).
void load_demo(const std::string& conninfo_base, const std::string& dbname,
               const std::string& role = "sqlmorph_reader", int worker_roles = 0) {
  const auto r = test::run_loader({"--from", "sqlite:" + demo_db().string(), "--database", dbname, "--to",
                                   "postgres:" + conninfo_base + " dbname={db_id}", "--replace", "--grant",
                                   role, "--worker-roles", std::to_string(worker_roles), "-q"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

// A configuration whose backend `pg` reaches databases by name as `user`, with the backend's
// `options` (a TOML inline table's contents).
std::filesystem::path write_config(const test::temp_dir& dir, const std::string& host, int port,
                                   const std::string& user = "sqlmorph_reader",
                                   const std::string& options = "") {
  const auto file = dir.path() / "sqlmorph.toml";
  std::ofstream(file) << "[plugins]\ndirs = [\"" << test::plugin_dir().string() << "\"]\n"
                      << "[backends.pg]\nplugin = \"postgres\"\ntarget = \"host=" << host << " port=" << port
                      << " dbname={db_id} user=" << user << "\"\noptions = { " << options << " }\n";
  return file;
}

// A checksum of every table of the demo database, as the superuser sees it.
std::string demo_checksum(const std::string& dbname) {
  return test::pg_value(
      dbname,
      "SELECT md5(string_agg(t, '|' ORDER BY t)) FROM ("
      "SELECT 'e' || e::text AS t FROM employees e UNION ALL SELECT 'p' || p::text FROM projects p "
      "UNION ALL SELECT 'd' || d::text FROM departments d UNION ALL SELECT 'a' || a::text FROM assignments "
      "a) x");
}

}  // namespace

TEST_CASE("a run on PostgreSQL with hostile predictions: clear statuses within the limit, data unchanged") {
  const auto& pg = test::postgres();
  const std::string db = "sqlmorph_run_hostile";
  load_demo("host=" + pg.host + " port=" + std::to_string(pg.port) + " user=" + pg.superuser, db);
  const std::string before = demo_checksum(db);
  const std::string tables_before = test::pg_value(
      db, "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'");
  test::temp_dir dir;
  // In /tmp, where the server's system user could write it (not in this test's private folder),
  // and of this process only.
  const std::filesystem::path marker = "/tmp/sqlmorph-run-copy-marker-" + std::to_string(::getpid());
  std::filesystem::remove(marker);
  const std::string gold = "SELECT name FROM employees WHERE dept = 'eng'";
  const std::vector<std::pair<std::string, std::string>> hostile = {
      {"drop", "DROP TABLE employees"},
      {"delete", "DELETE FROM employees"},
      {"update", "UPDATE employees SET salary = 0"},
      {"create", "CREATE TABLE evil(x int)"},
      {"insert", "INSERT INTO employees(name) VALUES ('x')"},
      {"copy_program", "COPY (SELECT 1) TO PROGRAM 'touch " + marker.string() + "'"},
      {"set_role", "SET ROLE " + pg.superuser},
      {"two_statements", "SELECT 1; DROP TABLE employees"},
      {"cte_delete", "WITH d AS (DELETE FROM employees RETURNING name) SELECT name FROM d"},
      {"sleep", "SELECT pg_sleep(1e6)"},
      {"cross_join", "SELECT a.x, b.x FROM generate_series(1, 100000) a(x), generate_series(1, 100000) b(x)"},
      {"fine", gold},
  };
  const auto cases = dir.path() / "hostile.jsonl";
  {
    std::ofstream out(cases);
    for (const auto& [id, sql] : hostile)
      out << json{{"id", id}, {"db_id", db}, {"gold", gold}, {"pred", sql}}.dump() << "\n";
  }
  const auto started = std::chrono::steady_clock::now();
  const auto r =
      test::run_sqlmorph({"--config", write_config(dir, pg.host, pg.port).string(), "-q", "eval", "--cases",
                          cases.string(), "--backend", "pg", "--techniques", "execution_accuracy",
                          "--timeout", "2", "--max-rows", "100000", "--out", (dir.path() / "out").string()});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(seconds < 60);  // generous: proves it stopped, not how fast (pg_sleep(1e6) otherwise)
  std::map<std::string, json> by_id;
  for (const json& j : read_jsonl(dir.path() / "out/results.jsonl")) by_id[j["id"]] = j;
  REQUIRE(by_id.size() == hostile.size());
  for (const char* id :
       {"drop", "delete", "update", "create", "insert", "copy_program", "set_role", "two_statements"}) {
    CAPTURE(id);
    CHECK(by_id[id]["status"] == "pred_error");
    const std::string error = by_id[id]["error"];
    const bool gate = error.find("only a query may be executed") != std::string::npos ||
                      error.find("several statements") != std::string::npos;
    CHECK_MESSAGE(gate, error);
  }
  CHECK(by_id["cte_delete"]["status"] == "pred_error");
  CHECK(by_id["cte_delete"]["error"].get<std::string>().find("read-only transaction") != std::string::npos);
  CHECK(by_id["sleep"]["status"] == "timeout");
  CHECK(by_id["cross_join"]["status"] == "truncated");
  CHECK(by_id["fine"]["status"] == "ok");
  CHECK(by_id["fine"]["EX"] == 1);
  CHECK(demo_checksum(db) == before);
  CHECK(test::pg_value(db,
                       "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname "
                       "= 'public'") == tables_before);
  CHECK_FALSE(std::filesystem::exists(marker));
  // Nothing is left on the server (a session ends a moment after its client).
  CHECK(test::eventually([&] {
    return test::pg_value("postgres", "SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db +
                                          "' AND usename LIKE 'sqlmorph\\_kill%'") == "0";
  }));
}
