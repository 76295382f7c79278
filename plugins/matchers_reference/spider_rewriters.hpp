#pragma once
// The SQL rewrites the official Spider evaluator applies before executing (exec_eval.py).

#include <sqlmorph/options.hpp>
#include <sqlmorph/sql_rewriter.hpp>

namespace sqlmorph::reference {

/// `postprocess`: "> =" → ">=", "< =" → "<=", "! =" → "!=".
class spider_fix_spaced_operators final : public sql_rewriter {
 public:
  explicit spider_fix_spaced_operators(const option_values&) {}

 protected:
  rewrite_outcome do_rewrite_(std::string_view sql, query_role role) const override;
};

/// `remove_distinct`: keeps the first statement (as `sqlparse.parse(s)[0]` does) and drops every
/// word token equal to DISTINCT, case-insensitively — also inside COUNT(DISTINCT x), as the
/// official evaluator does. Text with no statement (empty or blank) cannot be parsed and fails.
/// With `keep_distinct` the SQL is left as it is.
class spider_remove_distinct final : public sql_rewriter {
 public:
  explicit spider_remove_distinct(const option_values& o) : keep_distinct_(o.get_bool("keep_distinct")) {}

 protected:
  rewrite_outcome do_rewrite_(std::string_view sql, query_role role) const override;

 private:
  bool keep_distinct_;
};

/// `replace_cur_year`: `YEAR ( CURDATE ( ) )` (any case and spacing, and the spaces after it) → `2020`.
class spider_curdate_year final : public sql_rewriter {
 public:
  explicit spider_curdate_year(const option_values&) {}

 protected:
  rewrite_outcome do_rewrite_(std::string_view sql, query_role role) const override;
};

}  // namespace sqlmorph::reference
