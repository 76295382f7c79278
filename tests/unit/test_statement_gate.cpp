// The gate server backends apply to SQL they did not write.

#include <doctest/doctest.h>

#include <sqlmorph/statement_gate.hpp>

using sqlmorph::check_read_only_statement;

TEST_CASE("the statement gate accepts one reading statement, a trailing semicolon and comments allowed") {
  for (const char* sql : {"SELECT 1", "select 1;", "SELECT 1 ;  -- done\n", "SELECT 1; ;",
                          "WITH t AS (SELECT 1) SELECT * FROM t", "VALUES (1), (2)", "TABLE singer",
                          "(SELECT 1) UNION (SELECT 2)", "  /* c */ SELECT ';' AS x", "SELECT $$;$$",
                          "SELECT \"a;b\" FROM t", "SELECT 1 -- ; DROP TABLE t"}) {
    CAPTURE(sql);
    const auto c = check_read_only_statement(sql);
    CHECK(c.ok);
    CHECK(c.error.empty());
  }
  CHECK(check_read_only_statement("SELECT 1 ;  -- done\n").statement == "SELECT 1");
  CHECK(check_read_only_statement("(SELECT 1) UNION (SELECT 2);").statement == "(SELECT 1) UNION (SELECT 2)");
}

TEST_CASE("the statement gate refuses writes, several statements and ambiguous text, saying why") {
  const auto refused = [](const char* sql) {
    const auto c = check_read_only_statement(sql);
    CHECK_FALSE(c.ok);
    return c.error;
  };
  CHECK(refused("DROP TABLE singer").find("not a statement starting with 'DROP'") != std::string::npos);
  CHECK(refused("delete from singer").find("'delete'") != std::string::npos);
  CHECK(refused("COPY (SELECT 1) TO PROGRAM 'touch /tmp/x'").find("'COPY'") != std::string::npos);
  CHECK(refused("SET ROLE postgres").find("'SET'") != std::string::npos);
  CHECK(refused("SELECT 1; DROP TABLE singer").find("several statements") != std::string::npos);
  CHECK(refused("SELECT 1; SELECT 2;").find("several statements") != std::string::npos);
  CHECK(refused("").find("empty") != std::string::npos);
  CHECK(refused("  -- nothing\n").find("empty") != std::string::npos);
  CHECK(refused("SELECT 1 # 2; DROP TABLE t").find("'#'") != std::string::npos);
  CHECK(refused("SELECT E'\\''; DROP TABLE t; --'").find("E'...'") != std::string::npos);
  CHECK(refused("(DELETE FROM t)").find("'DELETE'") != std::string::npos);
}
