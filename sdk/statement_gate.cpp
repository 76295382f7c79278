#include "sqlmorph/statement_gate.hpp"

#include <vector>

#include "sqlmorph/sql_lexer.hpp"

namespace sqlmorph {
namespace {

bool is_reading_keyword(std::string_view word) {
  return iequals_ascii(word, "select") || iequals_ascii(word, "with") || iequals_ascii(word, "values") ||
         iequals_ascii(word, "table");
}

statement_check refuse(std::string message) {
  statement_check c;
  c.error = std::move(message);
  return c;
}

}  // namespace

statement_check check_read_only_statement(std::string_view sql) {
  const std::vector<sql_token> tokens = lex_sql(sql);
  // The end of the statement: the first `;` at depth 0; after it only trivia and more `;` may follow.
  int depth = 0;
  std::size_t end = sql.size();
  std::size_t last_meaningful_end = 0;
  bool ended = false;
  const sql_token* first_word = nullptr;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const sql_token& t = tokens[i];
    if (t.kind == sql_token_kind::comment && !t.text.empty() && t.text[0] == '#' &&
        t.text.find(';') != std::string_view::npos) {
      return refuse(
          "'#' starts a comment in MySQL but not elsewhere, and the text after it holds a ';': "
          "refused as possibly several statements");
    }
    if (t.kind == sql_token_kind::string && i > 0 && tokens[i - 1].kind == sql_token_kind::word &&
        iequals_ascii(tokens[i - 1].text, "e") && t.text.find('\\') != std::string_view::npos) {
      return refuse("an E'...' string with a backslash escape is refused (dialects split it differently)");
    }
    if (is_trivia(t)) continue;
    if (ended) {
      if (t.kind == sql_token_kind::punctuation && t.text == ";") continue;
      return refuse(
          "several statements: only one statement may be executed (found more after the ';' at offset " +
          std::to_string(end) + ")");
    }
    if (t.kind == sql_token_kind::punctuation && t.text == "(") ++depth;
    if (t.kind == sql_token_kind::punctuation && t.text == ")" && depth > 0) --depth;
    if (t.kind == sql_token_kind::punctuation && t.text == ";" && depth == 0) {
      ended = true;
      end = t.offset;
      continue;
    }
    if (first_word == nullptr && !(t.kind == sql_token_kind::punctuation && t.text == "(")) first_word = &t;
    last_meaningful_end = t.offset + t.text.size();
  }
  if (first_word == nullptr) return refuse("no statement: the SQL is empty or only comments");
  if (first_word->kind != sql_token_kind::word || !is_reading_keyword(first_word->text)) {
    return refuse(
        "only a query may be executed (SELECT, WITH, VALUES or TABLE), not a statement starting with '" +
        std::string(first_word->text.substr(0, 40)) + "'");
  }
  statement_check ok;
  ok.ok = true;
  ok.statement = sql.substr(0, last_meaningful_end);
  return ok;
}

}  // namespace sqlmorph
