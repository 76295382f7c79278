#include "semantic_rows.hpp"

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
    std::vector<std::string> distinct;
    std::unordered_map<std::string_view, std::size_t> text_id;
    std::vector<std::size_t> gold_text;  // text of each gold group, and rows per group
    std::vector<std::size_t> gold_count;
    std::vector<std::size_t> pred_text;
    std::vector<std::size_t> pred_count;
    std::unordered_map<std::size_t, std::size_t> group_of;  // text → group, per side
    for (std::size_t k = 0; k < texts.size(); ++k) {
      if (k == gold_n) group_of.clear();
      const auto [it, added] = text_id.emplace(texts[k], text_id.size());
      if (added) distinct.push_back(texts[k]);
      auto& side_text = k < gold_n ? gold_text : pred_text;
      auto& side_count = k < gold_n ? gold_count : pred_count;
      const auto [g, new_group] = group_of.emplace(it->second, side_text.size());
      if (new_group) {
        side_text.push_back(it->second);
        side_count.push_back(0);
      }
      ++side_count[g->second];
    }
    const std::vector<std::vector<double>> vectors = embed_or_throw(*embedder_, distinct);
    const auto floats = [&](const std::vector<std::size_t>& ids) {
      std::vector<float_vector> out;
      out.reserve(ids.size());
      for (const std::size_t id : ids) out.push_back(to_float(vectors[id]));
      return out;
    };
    const std::size_t gold_groups = gold_text.size();
    std::vector<double> sim;
    {  // (the float matrix is gone before the assignment makes its own copy)
      const std::vector<float> cosines = row_cosine_matrix(floats(pred_text), floats(gold_text));
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
