#include "semantic_columns.hpp"

#include <algorithm>
#include <tuple>

#include "column_descriptions.hpp"
#include "embedding_call.hpp"
#include "optimal_assignment.hpp"
#include "similarity.hpp"

namespace sqlmorph::semantic {

semantic_columns::semantic_columns(const option_values& o)
    : embedder_(o.get_component<embedder>("embedder")), threshold_(o.get_double("threshold")) {}

column_alignment semantic_columns::do_align_(const match_input& in) const {
  column_alignment out;
  const std::size_t gold_n = in.gold.column_count();
  const std::size_t pred_n = in.pred.column_count();
  if (gold_n == 0 || pred_n == 0) return out;
  // Both sides in one call: the embedder (and its cache) sees every text of the example at once.
  std::vector<std::string> texts = column_descriptions(in.gold);
  for (std::string& t : column_descriptions(in.pred)) texts.push_back(std::move(t));
  const std::vector<std::vector<double>> vectors = embed_or_throw(*embedder_, texts);
  std::vector<double> sim(pred_n * gold_n);
  for (std::size_t p = 0; p < pred_n; ++p) {
    for (std::size_t g = 0; g < gold_n; ++g) sim[p * gold_n + g] = cosine(vectors[gold_n + p], vectors[g]);
  }
  const std::vector<std::size_t> gold_of = optimal_assignment(sim, pred_n, gold_n);
  for (std::size_t p = 0; p < pred_n; ++p) {
    if (gold_of[p] == unassigned) continue;
    const double s = sim[p * gold_n + gold_of[p]];
    if (s > threshold_) out.pairs.push_back({gold_of[p], p, std::min(s, 1.0)});
  }
  const auto& gold_names = in.gold.column_names();
  const auto& pred_names = in.pred.column_names();
  std::stable_sort(out.pairs.begin(), out.pairs.end(), [&](const column_pair& a, const column_pair& b) {
    return std::tie(pred_names[a.pred], gold_names[a.gold]) <
           std::tie(pred_names[b.pred], gold_names[b.gold]);
  });
  return out;
}

}  // namespace sqlmorph::semantic
