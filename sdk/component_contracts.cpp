// The non-virtual public halves of the component interfaces: each checks what the implementation
// returned before it can flow into the next component.

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sqlmorph/cell_matcher.hpp"
#include "sqlmorph/column_matcher.hpp"
#include "sqlmorph/embedder.hpp"
#include "sqlmorph/judge.hpp"
#include "sqlmorph/normalizer.hpp"
#include "sqlmorph/row_matcher.hpp"
#include "sqlmorph/scorer.hpp"
#include "sqlmorph/sql_rewriter.hpp"

namespace sqlmorph {

column_alignment column_matcher::align(const match_input& in) const {
  column_alignment out = do_align_(in);
  if (out.how != produces()) {
    throw std::logic_error(std::string("column matcher returned a '") +
                           std::string(alignment_mode_name(out.how)) + "' alignment but declares '" +
                           std::string(alignment_mode_name(produces())) + "'");
  }
  for (const column_pair& p : out.pairs) {
    if (p.gold >= in.gold.column_count() || p.pred >= in.pred.column_count()) {
      throw std::logic_error("column matcher returned pair (" + std::to_string(p.gold) + ", " +
                             std::to_string(p.pred) + ") outside the results' " +
                             std::to_string(in.gold.column_count()) + " gold and " +
                             std::to_string(in.pred.column_count()) + " predicted columns");
    }
  }
  return out;
}

double cell_matcher::similarity(const value& gold, const value& pred) const {
  const double s = do_similarity_(gold, pred);
  if (!(s > 0.0)) return 0.0;  // also maps NaN to 0
  return s > 1.0 ? 1.0 : s;
}

std::uint64_t cell_matcher::equivalence_hash(const value&) const {
  return 0;
}

row_match row_matcher::match(const match_input& in, const column_alignment& columns) const {
  if (!accepts(columns.how)) {
    throw std::invalid_argument(std::string("this row matcher does not accept a '") +
                                std::string(alignment_mode_name(columns.how)) + "' column alignment");
  }
  row_match out = do_match_(in, columns);
  const cell_counts& c = out.counts;
  if (c.matched < 0 || c.gold_cells < 0 || c.pred_cells < 0 || c.pred_cells_aligned < 0) {
    throw std::logic_error("row matcher returned a negative cell count");
  }
  return out;
}

namespace {
// EX is a 0/1 verdict (or a share of examples); EXP / EXR / F1 may be negative for techniques that
// credit cosine similarities (unified_column_and_semantic_row), never below -1 or above 1.
void check_metric(const std::optional<double>& m, const char* name, double lowest) {
  if (m && !(*m >= lowest && *m <= 1.0)) {
    throw std::logic_error(std::string("scorer returned ") + name + " = " + std::to_string(*m) +
                           ", outside [" + (lowest < 0 ? "-1" : "0") + ", 1]");
  }
}
}  // namespace

scores scorer::score(const match_input& in, const column_alignment& columns, const row_match& rows) const {
  scores out = do_score_(in, columns, rows);
  check_metric(out.ex, "EX", 0.0);
  check_metric(out.exp, "EXP", -1.0);
  check_metric(out.exr, "EXR", -1.0);
  check_metric(out.f1, "F1", -1.0);
  return out;
}

namespace {
void check_normalized(const result& in, const result& out) {
  if (out.column_count() == 0 && in.column_count() != 0) {
    throw std::logic_error("normalizer returned a result without columns");
  }
  if (out.column_types().size() != 0 && out.column_types().size() != out.column_count()) {
    throw std::logic_error("normalizer returned mismatched column names and types");
  }
}

// Same kind and same payload: a normalizer that returns this left the value as it was.
bool identical(const value& a, const value& b) noexcept {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case value_kind::null:
      return true;
    case value_kind::integer:
      return a.as_integer() == b.as_integer();
    case value_kind::real:
      return std::bit_cast<std::uint64_t>(a.as_real()) == std::bit_cast<std::uint64_t>(b.as_real());
    default:
      return a.bytes() == b.bytes();
  }
}
}  // namespace

result normalizer::normalize(const result& in) const {
  result out = do_normalize_(in);
  check_normalized(in, out);
  return out;
}

std::optional<result> normalizer::normalize_if_changed(const result& in) const {
  std::optional<result> out = do_normalize_if_changed_(in);
  if (out) check_normalized(in, *out);
  return out;
}

result value_normalizer::do_normalize_(const result& in) const {
  std::optional<result> out = do_normalize_if_changed_(in);
  return out ? std::move(*out) : in.clone();
}

std::optional<result> value_normalizer::do_normalize_if_changed_(const result& in) const {
  // Each value is normalized into a one-column scratch result and compared with the input; the
  // output is only started at the first value that changes (the ones before it are copied then).
  const auto cells = in.cells();
  result scratch;
  scratch.set_columns({"value"});
  std::optional<result> out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i % 4096 == 0 && !out) {  // bounds the scratch arena
      scratch = result();
      scratch.set_columns({"value"});
    }
    result& target = out ? *out : scratch;
    const std::size_t before = target.cells().size();
    normalize_value_(cells[i], target);
    if (target.cells().size() != before + 1) {
      throw std::logic_error("value normalizer must append exactly one value per input value");
    }
    if (out) continue;
    const value& produced = scratch.cells().back();
    if (identical(produced, cells[i])) {
      scratch.keep_rows(0);
      continue;
    }
    out.emplace();
    out->set_columns(in.column_names(), in.column_types());
    out->reserve_rows(in.row_count());
    for (std::size_t j = 0; j < i; ++j) out->append(cells[j]);
    out->append(produced);
  }
  if (out) out->set_truncated(in.truncated());
  return out;
}

rewrite_outcome sql_rewriter::rewrite(std::string_view sql, query_role role) const {
  return do_rewrite_(sql, role);
}

embedding_outcome embedder::embed(std::span<const std::string> texts) const {
  embedding_outcome out = do_embed_(texts);
  if (out.ok && out.vectors.size() != texts.size()) {
    out.ok = false;
    out.error = "embedder returned " + std::to_string(out.vectors.size()) + " vectors for " +
                std::to_string(texts.size()) + " texts";
  }
  return out;
}

std::string embedder::check_reachable() const {
  try {
    return do_check_reachable_();
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::optional<std::string> judge::prompt(const judge_request& request) const {
  try {
    return do_prompt_(request);
  } catch (const std::exception& e) {
    return std::string("(the prompt could not be made: ") + e.what() + ")";
  }
}

std::string judge::check_reachable() const {
  try {
    return do_check_reachable_();
  } catch (const std::exception& e) {
    return e.what();
  }
}

judge_verdict judge::evaluate(const judge_request& request) const {
  judge_verdict v = do_evaluate_(request);
  if (v.ok) {
    if (!v.label || (*v.label != 0 && *v.label != 1)) {
      v.ok = false;
      v.error = "judge returned no 0/1 label";
    } else if (!(v.confidence >= 0.0 && v.confidence <= 100.0)) {
      v.ok = false;
      v.error = "judge returned a confidence outside [0, 100]";
    }
  }
  return v;
}

}  // namespace sqlmorph
