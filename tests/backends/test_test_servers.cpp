// The servers the backend tests run against are up, private and disposable.

#include <doctest/doctest.h>

#include "test_support.hpp"

using namespace sqlmorph;

TEST_CASE("the test PostgreSQL server is running, on a unix socket only, with the C collation") {
  const auto& pg = test::postgres();
  CHECK(pg.host.rfind("/tmp/sqlmorph-pg.", 0) == 0);
  CHECK(test::pg_value("postgres", "SHOW listen_addresses").empty());
  CHECK(test::pg_value("postgres", "SELECT datcollate FROM pg_database WHERE datname = 'template0'") == "C");
  test::pg_recreate_database("sqlmorph_smoke");
  test::pg_exec("sqlmorph_smoke", "CREATE TABLE t(a int); INSERT INTO t VALUES (1), (2)");
  test::pg_grant_reader("sqlmorph_smoke");
  CHECK(test::pg_value("sqlmorph_smoke", "SELECT sum(a) FROM t") == "3");
  CHECK(test::pg_value("postgres", "SELECT rolsuper::text FROM pg_roles WHERE rolname = 'sqlmorph_reader'") ==
        "false");
}
