// Which backend runs which query: [backends.NAME], [databases], the defaults, the command line,
// and each example's own choice.

#include <doctest/doctest.h>

#include <fstream>

#include "backends/backend_routes.hpp"
#include "config/config.hpp"
#include "errors.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {
core::config config_of(const test::temp_dir& dir, const std::string& text) {
  const auto file = dir.path() / "sqlmorph.toml";
  std::ofstream(file) << text;
  core::config c = core::load_config(file);
  c.plugin_dirs = {test::plugin_dir()};
  return c;
}
core::example example_of(std::string db_id, std::string path) {
  core::example ex;
  ex.id = "e";
  ex.db_id = std::move(db_id);
  ex.db = std::move(path);
  return ex;
}
}  // namespace

TEST_CASE("[backends.NAME] and [databases] are read, with errors at file:line:column") {
  test::temp_dir dir;
  const core::config c = config_of(dir, R"(
[run]
backend = "ro"
pred_backend = "sqlite"

[backends.ro]
plugin = "sqlite"
target = "/data/{db_id}.db"
options = { immutable = true, busy_timeout_ms = 10 }

[backends.pg]
plugin = "postgres"
target = "host=/tmp/pg dbname={db_id} user=sqlmorph_reader"

[databases]
concert_singer = "pg"
world_1 = { gold = "ro" }
)");
  REQUIRE(c.backends.size() == 2);
  CHECK(c.backends[0].name == "ro");  // file order
  CHECK(c.backends[0].component == "sqlite");
  CHECK(c.backends[0].target == "/data/{db_id}.db");
  CHECK(std::get<bool>(c.backends[0].options.at("immutable")));
  CHECK(std::get<std::int64_t>(c.backends[0].options.at("busy_timeout_ms")) == 10);
  CHECK(c.backends[0].origin.find("sqlmorph.toml:6:") != std::string::npos);
  CHECK(c.backends[1].component == "postgres");
  CHECK(c.run.backend == "ro");
  CHECK(c.run.pred_backend == "sqlite");
  REQUIRE(c.databases.size() == 2);

  const auto error = [&](const std::string& text) {
    return test::usage_error_of([&] { config_of(dir, text); });
  };
  CHECK(error("[backends.x]\nplugin = \"sqlite\"\ntarget = \"{db}/x\"\n")
            .find("sqlmorph.toml:3:10: unknown placeholder {db}") != std::string::npos);
  CHECK(error("[backends.x]\nplugn = \"sqlite\"\n")
            .find("sqlmorph.toml:2:1: unknown key 'plugn' in [backends.x]") != std::string::npos);
  CHECK(error("[backends.x]\ntarget = 3\n").find("'target' must be a string") != std::string::npos);
  CHECK(error("[databases]\ndb = 3\n").find("must be a backend name or a table") != std::string::npos);
  CHECK(error("[databases]\ndb = { gold = \"a\", prd = \"b\" }\n").find("unknown key 'prd'") !=
        std::string::npos);
}

TEST_CASE("a query's backend: the example's own, then [databases], then the role's default") {
  test::temp_dir dir;
  const core::config c = config_of(dir, R"(
[run]
gold_backend = "files"

[backends.files]
plugin = "sqlite"
target = "/dbs/{db_id}/{db_id}.sqlite"

[backends.ro]
plugin = "sqlite"
options = { immutable = true }

[databases]
world_1 = "ro"
flights = { pred = "files" }
)");
  const auto routes = core::backend_routes::make(c, test::registry());
  const core::example concert = example_of("concert_singer", "/x/concert.sqlite");
  CHECK(routes->for_role(concert, query_role::gold).name == "files");
  CHECK(routes->for_role(concert, query_role::pred).name == "sqlite");  // the built-in default
  CHECK(routes->target(concert, query_role::gold).target == "/dbs/concert_singer/concert_singer.sqlite");
  CHECK(routes->target(concert, query_role::pred).target == "/x/concert.sqlite");
  const core::example world = example_of("world_1", "/x/world.sqlite");
  CHECK(routes->for_role(world, query_role::gold).name == "ro");
  CHECK(routes->for_role(world, query_role::pred).name == "ro");
  const core::example flights = example_of("flights", "/x/f.sqlite");
  CHECK(routes->for_role(flights, query_role::gold).name == "files");
  CHECK(routes->for_role(flights, query_role::pred).name == "files");
  core::example own = concert;
  own.pred_backend = "ro";
  CHECK(routes->for_role(own, query_role::pred).name == "ro");
  // {db_id} of an example without one: its database file's name.
  CHECK(routes->target(example_of("", "/y/pets_1.sqlite"), query_role::gold).target ==
        "/dbs/pets_1/pets_1.sqlite");

  // The command line wins over the file.
  core::route_choice choice;
  choice.backend = "ro";
  choice.gold_backend = "sqlite";
  choice.databases = {{"world_1", "files"}};
  const auto chosen = core::backend_routes::make(c, test::registry(), choice);
  CHECK(chosen->for_role(concert, query_role::gold).name == "sqlite");
  CHECK(chosen->for_role(concert, query_role::pred).name == "ro");
  CHECK(chosen->for_role(world, query_role::gold).name == "files");
  CHECK(chosen->describe()["databases"]["world_1"]["pred"] == "files");
  CHECK(chosen->fingerprint() != routes->fingerprint());
}

TEST_CASE("unknown backends are refused before anything runs, saying where they were asked for") {
  test::temp_dir dir;
  core::config c = config_of(dir, "[databases]\nconcert_singer = \"nowhere\"\n");
  CHECK(test::usage_error_of([&] {
          core::backend_routes::make(c, test::registry());
        }).find("sqlmorph.toml:2:18: unknown backend 'nowhere'") != std::string::npos);
  c.databases.clear();
  core::route_choice choice;
  choice.pred_backend = "oracle";
  CHECK(test::usage_error_of([&] {
          core::backend_routes::make(c, test::registry(), choice);
        }).find("--pred-backend: unknown backend 'oracle'") != std::string::npos);
  const core::config bad =
      config_of(dir, "[run]\nbackend = \"x\"\n[backends.x]\nplugin = \"sqlite\"\noptions = { nope = 1 }\n");
  CHECK(test::usage_error_of([&] {
          core::backend_routes::make(bad, test::registry());
        }).find("backend 'x'") != std::string::npos);
  // An example naming a backend the run did not set up.
  const auto routes = core::backend_routes::make(core::default_config(), test::registry());
  core::example ex = example_of("a", "/a.sqlite");
  ex.gold_backend = "pg";
  CHECK(test::usage_error_of([&] { routes->for_role(ex, query_role::gold); }).find("backend 'pg'") !=
        std::string::npos);
}

TEST_CASE("--backends: every example once per backend, named after it") {
  core::example a = example_of("d", "/d.sqlite");
  a.id = "sys:0";
  a.system = "sys";
  const auto both = core::examples_on_each_backend({a}, {"sqlite", "pg"});
  REQUIRE(both.size() == 2);
  CHECK(both[0].id == "sys:0@sqlite");
  CHECK(both[0].system == "sys@sqlite");
  CHECK(both[1].gold_backend == "pg");
  CHECK(both[1].pred_backend == "pg");
  a.system.clear();
  CHECK(core::examples_on_each_backend({a}, {"pg"})[0].system == "pg");
}
