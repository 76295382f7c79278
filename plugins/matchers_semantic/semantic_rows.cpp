#include "semantic_rows.hpp"

#include <set>

#include "column_descriptions.hpp"
#include "embedding_call.hpp"
#include "optimal_assignment.hpp"
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
    const std::vector<std::vector<double>> vectors = embed_or_throw(*embedder_, texts);
    std::vector<float_vector> vf;
    vf.reserve(vectors.size());
    for (const auto& v : vectors) vf.push_back(to_float(v));
    std::vector<double> sim(pred_n * gold_n);
    for (std::size_t p = 0; p < pred_n; ++p) {
      for (std::size_t g = 0; g < gold_n; ++g) {
        sim[p * gold_n + g] =
            texts[gold_n + p] == texts[g] ? 1.0 : static_cast<double>(row_cosine(vf[gold_n + p], vf[g]));
      }
    }
    const std::vector<std::size_t> gold_of = optimal_assignment(sim, pred_n, gold_n);
    for (std::size_t p = 0; p < pred_n; ++p) {
      if (gold_of[p] != unassigned) total += sim[p * gold_n + gold_of[p]] * coverage;
    }
  }
  out.extra.emplace_back(similarity_sum_field, total);
  out.extra.emplace_back(coverage_field, coverage);
  return out;
}

}  // namespace sqlmorph::semantic
