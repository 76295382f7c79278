#pragma once
// What the evaluation of one example has rewritten, executed and normalized so far. Every technique
// variant of the example asks here, so each distinct query runs once per database and each result
// is normalized once per normalizer chain; matches are memoized per pair of results.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include <sqlmorph/query_timer.hpp>

#include "backends/backend_routes.hpp"
#include "eval/example.hpp"
#include "eval/query_executor.hpp"
#include "eval/query_failure.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

/// `rows` after the technique's normalizers, or null when none changed a value.
std::shared_ptr<const result> apply_normalizers(const technique& t, const result& rows);

class example_run {
 public:
  example_run(query_executor& queries, const example& ex, const backend_routes& routes);

  const example& ex() const noexcept { return ex_; }
  query_executor& queries() noexcept { return queries_; }
  const backend_routes& routes() const noexcept { return routes_; }
  /// Where `role`'s query runs for this example.
  const query_target& target(query_role role) const noexcept {
    return role == query_role::gold ? gold_target_ : pred_target_;
  }
  match_memo& memo() noexcept { return memo_; }
  /// The digest of `r`, a result of this example (computed once per result).
  const std::string& digest(const result& r);

  /// The SQL of `role` after the technique's rewriters, or the rewrite's failure.
  struct rewritten {
    std::string sql;
    std::optional<query_failure> problem;
  };
  const rewritten& rewrite(const technique& t, query_role role);

  /// The outcome of `sql` on `where` (executed the first time it is asked for).
  const query_outcome& execute(const query_target& where, const std::string& sql, query_role role);

  /// `rows` (the result of `sql` on `where`) after the technique's normalizers.
  const result& normalize(const technique& t, const query_target& where, const std::string& sql,
                          const result& rows);

 private:
  query_executor& queries_;
  const example& ex_;
  const backend_routes& routes_;
  query_target gold_target_;
  query_target pred_target_;
  std::map<std::string, std::shared_ptr<const query_outcome>, std::less<>> executed_;
  std::map<std::string, rewritten, std::less<>> rewrites_;
  std::map<std::string, std::shared_ptr<const result>, std::less<>> normalized_;
  match_memo memo_;
  std::map<const result*, std::string> digests_;
};

/// The host's query_timer for one example: times the example's rewritten queries through the
/// worker's executor, and remembers how a repetition failed so the record can say so.
class example_timer final : public query_timer {
 public:
  example_timer(query_executor& queries, const query_target& gold_where, std::string_view gold_sql,
                const query_target& pred_where, std::string_view pred_sql)
      : queries_(queries),
        gold_where_(gold_where),
        pred_where_(pred_where),
        gold_sql_(gold_sql),
        pred_sql_(pred_sql) {}

  timed_runs repeat(std::size_t iterations) override;

  /// How the last repetition failed, if it did.
  const std::optional<query_failure>& failure() const noexcept { return failure_; }

 private:
  query_executor& queries_;
  const query_target& gold_where_;
  const query_target& pred_where_;
  std::string_view gold_sql_;
  std::string_view pred_sql_;
  std::optional<query_failure> failure_;
};

}  // namespace sqlmorph::core
