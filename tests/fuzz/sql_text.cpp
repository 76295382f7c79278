// The SQL lexer, the read-only statement gate and the official Spider rewrites, on any bytes.

#include <cstddef>
#include <cstdint>

#include <sqlmorph/sql_lexer.hpp>
#include <sqlmorph/statement_gate.hpp>

#include "fuzz_support.hpp"
#include "spider_rewriters.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  std::string joined;
  for (const sql_token& t : lex_sql(sql)) joined += t.text;
  fuzz::require(joined == sql, "the tokens give back the input exactly");
  (void)has_top_level_order_by(sql);
  const std::string_view first = first_statement(sql);
  fuzz::require(sql.substr(0, first.size()) == first, "the first statement is a prefix");
  const statement_check check = check_read_only_statement(sql);
  fuzz::require(check.ok == check.error.empty(), "a refusal says why");

  static const option_values none;
  static const option_values keep = [] {
    option_values o;
    o.set("keep_distinct", true);
    return o;
  }();
  static const option_values drop = [] {
    option_values o;
    o.set("keep_distinct", false);
    return o;
  }();
  static const reference::spider_fix_spaced_operators fix(none);
  static const reference::spider_remove_distinct remove(drop);
  static const reference::spider_remove_distinct kept(keep);
  static const reference::spider_curdate_year year(none);
  for (const sql_rewriter* r :
       {static_cast<const sql_rewriter*>(&fix), static_cast<const sql_rewriter*>(&remove),
        static_cast<const sql_rewriter*>(&kept), static_cast<const sql_rewriter*>(&year)}) {
    for (const query_role role : {query_role::gold, query_role::pred}) {
      const rewrite_outcome out = r->rewrite(sql, role);
      fuzz::require(out.ok || !out.error.empty(), "a failed rewrite says why");
    }
  }
  return 0;
}
