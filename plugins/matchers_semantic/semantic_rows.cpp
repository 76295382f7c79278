#include "semantic_rows.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

#include "column_descriptions.hpp"
#include "embedding_call.hpp"
#include "optimal_assignment.hpp"
#include "row_similarity.hpp"
#include "similarity.hpp"

namespace sqlmorph::semantic {

semantic_rows::semantic_rows(const option_values& o) : embedder_(o.get_component<embedder>("embedder")) {}

row_match semantic_rows::do_match_(const match_input& in, const column_alignment& columns) const {
  row_match out;
  const std::size_t gold_n = in.gold.row_count();
  const std::size_t pred_n = in.pred.row_count();
  out.counts.gold_cells = static_cast<double>(gold_n);
  out.counts.pred_cells = static_cast<double>(pred_n);
  out.counts.pred_cells_aligned = static_cast<double>(pred_n);

  const std::set<std::string> gold_names(in.gold.column_names().begin(), in.gold.column_names().end());
  std::set<std::string> all = gold_names;
  all.insert(in.pred.column_names().begin(), in.pred.column_names().end());
  const double coverage = gold_names.size() <= 1 ? 1.0
                                                 : static_cast<double>(columns.pairs.size()) /
                                                       static_cast<double>(gold_names.size());
  double total = 0;
  if (gold_n > 0 && pred_n > 0) {
    const std::vector<std::string> names(all.begin(), all.end());
    std::vector<std::string> texts = row_strings(in.gold, names);
    for (std::string& t : row_strings(in.pred, names)) texts.push_back(std::move(t));
    // Equal rows have equal strings, hence equal vectors (the embedder is called through the
    // embedding cache, one vector per distinct text) and equal similarities: each distinct string is
    // embedded once, the similarities are those of distinct gold and predicted strings, and the
    // assignment gives each distinct string as many copies as it has rows (grouped_assignment: the
    // same optimum as the assignment of every row). A string in both results is one text, of
    // similarity 1 with itself.
    std::vector<std::size_t> first_row;  // of each distinct text
    std::unordered_map<std::string_view, std::size_t> text_id;
    std::vector<std::size_t> gold_text;  // text of each gold group, and rows per group
    std::vector<std::size_t> gold_count;
    std::vector<std::size_t> pred_text;
    std::vector<std::size_t> pred_count;
    std::unordered_map<std::size_t, std::size_t> group_of;  // text → group, per side
    for (std::size_t k = 0; k < texts.size(); ++k) {
      if (k == gold_n) group_of.clear();
      const auto [it, added] = text_id.emplace(texts[k], text_id.size());
      if (added) first_row.push_back(k);
      auto& side_text = k < gold_n ? gold_text : pred_text;
      auto& side_count = k < gold_n ? gold_count : pred_count;
      const auto [g, new_group] = group_of.emplace(it->second, side_text.size());
      if (new_group) {
        side_text.push_back(it->second);
        side_count.push_back(0);
      }
      ++side_count[g->second];
    }
    text_id.clear();  // (its keys view `texts`, moved from now)
    std::vector<std::string> distinct;
    distinct.reserve(first_row.size());
    for (const std::size_t k : first_row) distinct.push_back(std::move(texts[k]));
    // Embedded a batch at a time and kept as float32 only (half the memory of the embedder's
    // doubles, which a prediction of 200,000 rows makes count).
    std::vector<float_vector> vectors;
    vectors.reserve(distinct.size());
    const std::size_t batch = std::max<std::size_t>(1, embedder_->max_batch());
    for (std::size_t start = 0; start < distinct.size(); start += batch) {
      const std::span<const std::string> some(distinct.data() + start,
                                              std::min(batch, distinct.size() - start));
      for (const std::vector<double>& v : embed_or_throw(*embedder_, some)) vectors.push_back(to_float(v));
    }
    // Each side's vectors: a text of the gold side only, or of both sides, is copied; a text of the
    // predicted side only is moved.
    std::vector<char> on_gold_side(distinct.size(), 0);
    for (const std::size_t id : gold_text) on_gold_side[id] = 1;
    std::vector<float_vector> gold_vectors;
    gold_vectors.reserve(gold_text.size());
    for (const std::size_t id : gold_text) gold_vectors.push_back(vectors[id]);
    std::vector<float_vector> pred_vectors;
    pred_vectors.reserve(pred_text.size());
    for (const std::size_t id : pred_text)
      pred_vectors.push_back(on_gold_side[id] ? vectors[id] : std::move(vectors[id]));
    vectors.clear();
    const std::size_t gold_groups = gold_text.size();
    std::vector<double> sim;
    {  // (the float matrix is gone before the assignment makes its own copy)
      const std::vector<float> cosines = row_cosine_matrix(pred_vectors, gold_vectors);
      sim.resize(cosines.size());
      for (std::size_t p = 0; p < pred_text.size(); ++p) {
        for (std::size_t g = 0; g < gold_groups; ++g) {
          sim[p * gold_groups + g] =
              pred_text[p] == gold_text[g] ? 1.0 : static_cast<double>(cosines[p * gold_groups + g]);
        }
      }
    }
    for (const group_flow& f : grouped_assignment(sim, pred_count, gold_count)) {
      const double s = sim[f.row * gold_groups + f.col] * coverage;
      for (std::size_t k = 0; k < f.count; ++k) total += s;
    }
  }
  out.extra.emplace_back(similarity_sum_field, total);
  out.extra.emplace_back(coverage_field, coverage);
  return out;
}

}  // namespace sqlmorph::semantic
