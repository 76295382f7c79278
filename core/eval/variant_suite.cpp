#include "eval/variant_suite.hpp"

#include <algorithm>
#include <system_error>

#include "eval/technique_scoring.hpp"

namespace sqlmorph::core {
namespace {

struct suite_database {
  query_target gold;
  query_target pred;
  std::string name;
};

// How one candidate (the prediction, or an alternative) fared over the databases.
struct trial {
  bool passed = false;
  std::size_t variants_run = 0;
  std::string failed_variant;
  /// The candidate failed to execute on failed_variant.
  std::optional<query_failure> pred_failure;
  /// The example ends here (a gold query failed, a database is missing, a component failed).
  std::optional<query_failure> stop;
  /// The scores of the last verdict (for the row matcher's extra fields).
  std::optional<scores> last;
  double gold_ms = 0;
  double pred_ms = 0;
  /// Time spent scoring (normalizing, matching, scoring) over the databases; empty if none was.
  std::optional<double> technique_ms;
};

std::string on_variant(const std::string& name, const std::string& message) {
  return "on database variant " + name + ": " + message;
}

// Runs one candidate over the databases in order and stops at the first that disagrees, as
// eval_exec_match does (the gold query, then the candidate, on each). `sql` is empty when the
// candidate could not be written (`unwritable`). Alternatives (`keep` false) are not kept in the
// example's caches: there may be thousands of them.
trial try_candidate(example_run& run, const technique& t, const std::vector<suite_database>& dbs,
                    const std::string& gold_sql, const std::string& sql,
                    const std::optional<query_failure>& unwritable, bool keep) {
  trial out;
  for (const suite_database& db : dbs) {
    ++out.variants_run;
    const query_outcome& gold = run.execute(db.gold, gold_sql, query_role::gold);
    if (gold.status != query_status::db_missing) out.gold_ms += gold.elapsed_ms;
    if (auto f = failure_of(gold, query_role::gold)) {
      out.failed_variant = db.name;
      if (f->status != example_status::db_missing) f->message = on_variant(db.name, f->message);
      out.stop = std::move(f);
      return out;
    }
    if (unwritable) {
      out.failed_variant = db.name;
      out.pred_failure = unwritable;
      return out;
    }
    std::shared_ptr<const query_outcome> held;
    const query_outcome* pred = nullptr;
    if (keep) {
      pred = &run.execute(db.pred, sql, query_role::pred);
    } else {
      held = run.queries().execute(db.pred, sql, query_role::pred);
      pred = held.get();
    }
    if (pred->status != query_status::db_missing) out.pred_ms += pred->elapsed_ms;
    if (auto f = failure_of(*pred, query_role::pred)) {
      out.failed_variant = db.name;
      if (f->status == example_status::db_missing || f->status == example_status::backend_error) {
        out.stop = std::move(f);  // not the prediction's doing
      } else {
        f->message = on_variant(db.name, f->message);
        out.pred_failure = std::move(f);
      }
      return out;
    }
    // An alternative's results live only for this database: its matches are not memoized beyond it
    // (the memo is keyed by result addresses, which a later result may reuse).
    match_memo local_memo;
    const stopwatch scoring;
    auto scored = score_technique(t, run.ex().id, [&] {
      const result& g = run.normalize(t, db.gold, gold_sql, gold.rows);
      std::shared_ptr<const result> normalized_pred;
      const result* p = &pred->rows;
      if (keep) {
        p = &run.normalize(t, db.pred, sql, pred->rows);
      } else if ((normalized_pred = apply_normalizers(t, pred->rows))) {
        p = normalized_pred.get();
      }
      return t.evaluate(match_input{g, *p, gold_sql, sql}, keep ? run.memo() : local_memo);
    });
    out.technique_ms = out.technique_ms.value_or(0.0) + scoring.elapsed_ms();
    if (auto* failed = std::get_if<query_failure>(&scored)) {
      out.failed_variant = db.name;
      failed->message = on_variant(db.name, failed->message);
      out.stop = std::move(*failed);
      return out;
    }
    out.last = std::move(std::get<scores>(scored));
    if (!(out.last->ex && *out.last->ex >= 1.0)) {
      out.failed_variant = db.name;
      return out;
    }
  }
  out.passed = true;
  return out;
}

}  // namespace

const std::vector<std::string>& variant_folders::files(const std::filesystem::path& folder) {
  auto it = listed_.find(folder);
  if (it != listed_.end()) return it->second;
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator d(folder, ec), end; !ec && d != end; d.increment(ec)) {
    const std::string name = d->path().filename().string();
    if (name.size() > 7 && name.ends_with(".sqlite") && d->is_regular_file(ec)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return listed_.emplace(folder, std::move(names)).first->second;
}

void evaluate_over_suite(example_run& run, variant_folders& folders, const technique& t, record& r) {
  const example& ex = run.ex();
  const bool over_variants = t.databases() == database_scope::variants;
  const auto finish_failed = [&](const query_failure& f, fields extra) {
    r.status = f.status;
    r.error = f.message;
    if (f.status == example_status::db_missing) return;  // metrics stay null
    r.scores = zero_scores(t.metrics());
    r.scores.extra.insert(r.scores.extra.end(), extra.begin(), extra.end());
  };

  const example_run::rewritten& gold_sql = run.rewrite(t, query_role::gold);
  const example_run::rewritten& pred_sql = run.rewrite(t, query_role::pred);
  if (gold_sql.problem) return finish_failed(*gold_sql.problem, {});

  std::vector<suite_database> dbs;
  if (over_variants) {
    const configured_backend& gold_backend = run.routes().for_role(ex, query_role::gold);
    const configured_backend& pred_backend = run.routes().for_role(ex, query_role::pred);
    for (const configured_backend* b : {&gold_backend, &pred_backend}) {
      if (!b->file_targets()) {
        return finish_failed(
            {example_status::technique_error,
             "technique '" + t.name() + "' runs on every database file of a folder, and backend '" + b->name +
                 "' does not open database files (its target is not \"{path}\")"},
            {});
      }
    }
    const std::filesystem::path folder = std::filesystem::path(ex.db).parent_path();
    const std::vector<std::string>& names = folders.files(folder);
    if (names.empty()) {
      return finish_failed({example_status::db_missing,
                            "no database (*.sqlite) in " +
                                (folder.empty() ? std::string("the example's folder") : folder.string())},
                           {});
    }
    const std::string db_name = database_name(ex);
    for (const std::string& name : names) {
      const std::string path = (folder / name).string();
      dbs.push_back({{&gold_backend, gold_backend.target_for(db_name, path)},
                     {&pred_backend, pred_backend.target_for(db_name, path)},
                     name});
    }
  } else {
    dbs.push_back({run.target(query_role::gold), run.target(query_role::pred),
                   std::filesystem::path(ex.db).filename().string()});
  }

  // The prediction as written.
  const trial first = try_candidate(run, t, dbs, gold_sql.sql, pred_sql.sql, pred_sql.problem, true);
  r.gold_ms = first.gold_ms;
  r.pred_ms = first.pred_ms;
  r.technique_ms = first.technique_ms;
  fields suite_fields;
  if (over_variants) {
    suite_fields.emplace_back("variants", static_cast<std::int64_t>(first.variants_run));
    suite_fields.emplace_back("failed_variant", first.failed_variant.empty()
                                                    ? field_value(nullptr)
                                                    : field_value(first.failed_variant));
  }
  if (first.stop) return finish_failed(*first.stop, suite_fields);

  bool passed = first.passed;
  std::optional<query_failure> later_stop;
  if (!passed && t.candidates() != nullptr && !pred_sql.problem) {
    const candidate_list alternatives = t.candidates()->candidates(gold_sql.sql, pred_sql.sql);
    if (alternatives.total > alternatives.sql.size()) {
      return finish_failed({example_status::technique_error,
                            "there are " + std::to_string(alternatives.total) +
                                " ways to plug the gold query's values into the prediction, more than its "
                                "candidates component allows (max_candidates " +
                                std::to_string(alternatives.sql.size()) + ")"},
                           suite_fields);
    }
    std::size_t tried = 0;
    for (const std::string& sql : alternatives.sql) {
      ++tried;
      const trial alt = try_candidate(run, t, dbs, gold_sql.sql, sql, std::nullopt, false);
      if (alt.technique_ms) r.technique_ms = r.technique_ms.value_or(0.0) + *alt.technique_ms;
      if (alt.stop) {
        later_stop = alt.stop;
        break;
      }
      if (alt.passed) {
        passed = true;
        break;
      }
    }
    suite_fields.emplace_back("candidates", static_cast<std::int64_t>(tried));
    if (later_stop) return finish_failed(*later_stop, suite_fields);
  }

  if (!passed && first.pred_failure) return finish_failed(*first.pred_failure, suite_fields);
  r.status = example_status::ok;
  r.scores = first.last ? *first.last : zero_scores(t.metrics());
  r.scores.ex = passed ? 1.0 : 0.0;
  r.scores.extra.insert(r.scores.extra.end(), suite_fields.begin(), suite_fields.end());
}

}  // namespace sqlmorph::core
