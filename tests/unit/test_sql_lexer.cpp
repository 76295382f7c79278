// The SQL tokenizer: round trip, token kinds, top-level ORDER BY, first statement.

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include <sqlite3.h>
#include <sqlmorph/sql_lexer.hpp>

using namespace sqlmorph;

namespace {
std::string joined(std::string_view sql) {
  std::string out;
  for (const sql_token& t : lex_sql(sql)) out += t.text;
  return out;
}
std::vector<std::string> words(std::string_view sql) {
  std::vector<std::string> out;
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind == sql_token_kind::word) out.emplace_back(t.text);
  }
  return out;
}
}  // namespace

TEST_CASE("tokens concatenate back to the input, whatever it holds") {
  const char* inputs[] = {
      "SELECT DISTINCT name FROM t WHERE x = 'it''s' -- comment\nORDER BY 1;",
      "select \"col\"\"x\", `b`, [c d] from t /* block */ where a>=1 and b<>2",
      "unterminated 'string",
      "unterminated /* comment",
      "$$dollar body$$ $tag$ x $tag$ :param ? %s %(name)s",
      "bytes \xff\xfe\x80 and 1.5e-3 .5 0x1F 12abc",
      "",
  };
  for (const char* in : inputs) {
    CAPTURE(in);
    CHECK(joined(in) == in);
  }
}

TEST_CASE("words, strings, quoted names and comments are told apart") {
  CHECK(words("SELECT 'distinct' , \"distinct\", DISTINCT -- distinct\n") ==
        std::vector<std::string>{"SELECT", "DISTINCT"});
  CHECK(words("count(distinct t.distinct_x)") ==
        std::vector<std::string>{"count", "distinct", "t", "distinct_x"});
  const auto tokens = lex_sql("a>=b");
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[1].kind == sql_token_kind::op);
  CHECK(tokens[1].text == ">=");
}

TEST_CASE("ORDER BY is detected at the top level only, from tokens") {
  CHECK(has_top_level_order_by("SELECT a FROM t ORDER BY a"));
  CHECK(has_top_level_order_by("SELECT a FROM t order\n  by a"));
  CHECK(has_top_level_order_by("SELECT a FROM t ORDER /* why */ BY a"));
  CHECK_FALSE(has_top_level_order_by("SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3)"));
  CHECK_FALSE(has_top_level_order_by("SELECT 'order by' FROM t"));
  CHECK_FALSE(has_top_level_order_by("SELECT a FROM t -- order by a"));
  CHECK_FALSE(has_top_level_order_by("SELECT row_number() OVER (ORDER BY a) FROM t"));
  CHECK(has_top_level_order_by("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1"));
}

TEST_CASE("the first statement ends at the first top-level semicolon") {
  CHECK(first_statement("SELECT 1; SELECT 2") == "SELECT 1;");
  CHECK(first_statement("SELECT ';' AS x; DROP t") == "SELECT ';' AS x;");
  CHECK(first_statement("SELECT 1") == "SELECT 1");
  CHECK(iequals_ascii("DiStInCt", "distinct"));
  CHECK_FALSE(iequals_ascii("distinc", "distinct"));
}

namespace {
// Lexes `sql` in a child process limited in time (and, without AddressSanitizer, in memory), so
// that a lexer that never moves on fails this test instead of hanging the suite.
bool lexes_in_bounded_time(const std::string& sql) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(10);
#if !defined(__SANITIZE_ADDRESS__)
    const rlimit memory{std::uint64_t{2} << 30, std::uint64_t{2} << 30};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    try {
      ::_exit(joined(sql) == sql ? 0 : 1);
    } catch (...) {
      ::_exit(2);
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
}  // namespace

TEST_CASE("a dot, digits and letters (.5x) are lexed as '.' then a word, and the lexer moves on") {
  // Found by fuzzing: the lexer went back to the dot and emitted empty tokens forever, so one
  // prediction such as `SELECT T1.1st FROM t` hung its worker and ate all memory.
  for (const char* sql : {".5x", "SELECT T1.1st FROM t", "WH.2E ER", "x .5e", ".5_"}) {
    CAPTURE(sql);
    CHECK(lexes_in_bounded_time(sql));
  }
  const auto tokens = lex_sql("T1.1st");
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[0].text == "T1");
  CHECK(tokens[1].kind == sql_token_kind::punctuation);
  CHECK(tokens[1].text == ".");
  CHECK(tokens[2].kind == sql_token_kind::word);
  CHECK(tokens[2].text == "1st");
  CHECK(words("SELECT .5abc") == std::vector<std::string>{"SELECT", "5abc"});
  const auto number = lex_sql(".5 ");
  CHECK(number[0].kind == sql_token_kind::number);
}

TEST_CASE("a name or a string quoted for SQL reads back as itself in SQLite") {
  CHECK(sqlmorph::quote_sql_name("Net Worth") == "\"Net Worth\"");
  CHECK(sqlmorph::quote_sql_name("a\"b") == "\"a\"\"b\"");
  CHECK(sqlmorph::quote_sql_name("") == "\"\"");
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  for (const std::string name : {"plain", "two words", "quo\"te", "\"\"", "semi;colon", "select"}) {
    CAPTURE(name);
    const std::string sql = "CREATE TABLE " + sqlmorph::quote_sql_name(name) + " (x)";
    CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master ORDER BY rowid DESC LIMIT 1", -1, &st,
                               nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    CHECK(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)) == name);
    sqlite3_finalize(st);
  }
  // A string literal too.
  for (const std::string text : {"", "it's", "''", "a\"b"}) {
    CAPTURE(text);
    CHECK(sqlmorph::quote_sql_string(text).front() == '\'');
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, ("SELECT " + sqlmorph::quote_sql_string(text)).c_str(), -1, &st,
                               nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    CHECK(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)) == text);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
}
