#pragma once
/// \file sql_rewriter.hpp
/// The SqlRewriter interface: rewrites SQL text before it is executed (e.g. the official Spider
/// evaluator's removal of DISTINCT).

#include <string>
#include <string_view>

namespace sqlmorph {

/// Which query of an example is being rewritten.
enum class query_role { gold, pred };

/// A rewrite's outcome: the new SQL, or a failure (which counts as a failed query of that role).
struct rewrite_outcome {
  bool ok = true;
  std::string sql;
  std::string error;

  static rewrite_outcome success(std::string sql) { return {true, std::move(sql), {}}; }
  static rewrite_outcome failure(std::string error) { return {false, {}, std::move(error)}; }
};

/// Rewrites SQL before execution. A rewritten query is executed on its own (and cached like any
/// other query), so rewrites never affect other techniques. Stateless; thread-safe.
class sql_rewriter {
 public:
  static constexpr const char* kind_name = "sql_rewriter";
  using interface_type = sql_rewriter;

  virtual ~sql_rewriter() = default;

  rewrite_outcome rewrite(std::string_view sql, query_role role) const;

 protected:
  virtual rewrite_outcome do_rewrite_(std::string_view sql, query_role role) const = 0;
};

}  // namespace sqlmorph
