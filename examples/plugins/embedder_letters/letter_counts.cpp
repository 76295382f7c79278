// An example embedder plugin: a text becomes the vector of its 26 letter counts. A toy (anagrams get
// the same vector), but a complete embedder: the semantic techniques can use it by name, and the
// host batches, de-duplicates and caches its vectors like any other. docs/plugin-authoring.md
// ("Writing an embedder") walks through it.

#include <span>
#include <string>
#include <vector>

#include <sqlmorph/embedder.hpp>
#include <sqlmorph/plugin.hpp>

namespace {

class letter_counts final : public sqlmorph::embedder {
 public:
  // Options arrive validated, with defaults filled in.
  explicit letter_counts(const sqlmorph::option_values& options) : fold_(options.get_bool("fold_case")) {}

  // Names the vector space: the cache keeps vectors under it, so it changes whenever they would.
  std::string model_id() const override { return fold_ ? "letter-counts-v1-folded" : "letter-counts-v1"; }

  std::size_t max_batch() const noexcept override { return 1024; }

 protected:
  // Called concurrently by several workers: no mutable state. One vector per text, in order.
  sqlmorph::embedding_outcome do_embed_(std::span<const std::string> texts) const override {
    sqlmorph::embedding_outcome out;
    out.vectors.reserve(texts.size());
    for (const std::string& text : texts) {
      std::vector<double> counts(26, 0.0);
      for (char c : text) {
        if (fold_ && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c >= 'a' && c <= 'z') counts[static_cast<std::size_t>(c - 'a')] += 1.0;
      }
      out.vectors.push_back(std::move(counts));
    }
    return out;
  }

 private:
  bool fold_;
};

// Declared options: name, type, default (as text), description.
const sqlmorph_option_v1 letter_counts_options[] = {
    {"fold_case", "bool", "true", "count upper-case letters as lower-case ones"},
};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY("embedders_letters", "1.0.0",
                        sqlmorph::plugin::component<letter_counts>("letter_counts", "1.0.0",
                                                                   "vectors of letter counts (an example)",
                                                                   letter_counts_options))
