#include "embeddings/caching_embedder.hpp"

#include <algorithm>
#include <optional>

namespace sqlmorph::core {

void embedding_cache_settings::set_file(std::optional<std::filesystem::path> file) {
  const std::lock_guard lock(mutex_);
  if (!opened_) file_ = std::move(file);
}

std::shared_ptr<embedding_store> embedding_cache_settings::store() {
  const std::lock_guard lock(mutex_);
  if (!opened_) {
    opened_ = true;
    if (file_) store_ = std::make_shared<embedding_store>(*file_);
  }
  return store_;
}

caching_embedder::caching_embedder(std::shared_ptr<const embedder> inner,
                                   std::shared_ptr<embedding_cache_settings> settings)
    : inner_(std::move(inner)), settings_(std::move(settings)), model_(inner_->model_id()) {}

bool caching_embedder::from_memory_(const std::string& text, std::vector<double>& out) const {
  const std::lock_guard lock(memory_mutex_);
  const auto it = index_.find(text);
  if (it == index_.end()) return false;
  lru_.splice(lru_.end(), lru_, it->second);  // most recently used now
  out = it->second->second;
  return true;
}

void caching_embedder::to_memory_(const std::string& text, const std::vector<double>& v) const {
  const std::uint64_t capacity = settings_->memory_entries();
  if (capacity == 0) return;
  const std::lock_guard lock(memory_mutex_);
  if (index_.count(text)) return;
  while (lru_.size() >= capacity) {
    index_.erase(lru_.front().first);
    lru_.pop_front();
  }
  lru_.emplace_back(text, v);
  index_.emplace(lru_.back().first, std::prev(lru_.end()));
}

embedding_outcome caching_embedder::do_embed_(std::span<const std::string> texts) const {
  embedding_cache_stats& stats = settings_->stats();
  // Distinct texts, in order of first appearance: text distinct[d] is texts[distinct[d]].
  std::unordered_map<std::string_view, std::size_t> slot_of;
  std::vector<std::size_t> slot(texts.size());
  std::vector<std::size_t> distinct;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto [it, fresh] = slot_of.try_emplace(texts[i], distinct.size());
    if (fresh) distinct.push_back(i);
    slot[i] = it->second;
  }
  const auto text_of = [&](std::size_t d) -> const std::string& { return texts[distinct[d]]; };
  std::vector<std::vector<double>> vectors(distinct.size());
  std::vector<std::size_t> missing;
  for (std::size_t d = 0; d < distinct.size(); ++d) {
    if (from_memory_(text_of(d), vectors[d])) {
      stats.memory_hits.fetch_add(1, std::memory_order_relaxed);
    } else {
      missing.push_back(d);
    }
  }
  // Of the n vectors a step adds to memory, only the last `capacity` would stay there: the others
  // are not copied in only to be dropped.
  const std::uint64_t capacity = settings_->memory_entries();
  const auto first_kept_of = [capacity](std::size_t n) {
    return n > capacity ? n - static_cast<std::size_t>(capacity) : std::size_t{0};
  };
  const std::size_t first_kept = first_kept_of(missing.size());
  const std::shared_ptr<embedding_store> store = missing.empty() ? nullptr : settings_->store();
  if (store) {
    std::vector<std::string> keys;
    keys.reserve(missing.size());
    for (const std::size_t d : missing) keys.push_back(text_of(d));
    auto found = store->get(model_, keys);
    std::vector<std::size_t> still;
    for (std::size_t k = 0; k < missing.size(); ++k) {
      if (found[k]) {
        vectors[missing[k]] = std::move(*found[k]);
        if (k >= first_kept) to_memory_(text_of(missing[k]), vectors[missing[k]]);
        stats.disk_hits.fetch_add(1, std::memory_order_relaxed);
      } else {
        still.push_back(missing[k]);
      }
    }
    missing = std::move(still);
  }
  const std::size_t kept_from = first_kept_of(missing.size());
  const std::size_t batch = std::max<std::size_t>(1, inner_->max_batch());
  for (std::size_t start = 0; start < missing.size(); start += batch) {
    const std::size_t end = std::min(missing.size(), start + batch);
    std::vector<std::string> chunk;
    chunk.reserve(end - start);
    for (std::size_t k = start; k < end; ++k) chunk.push_back(text_of(missing[k]));
    stats.calls.fetch_add(1, std::memory_order_relaxed);
    embedding_outcome got = inner_->embed(chunk);
    if (!got.ok) return got;
    stats.embedded.fetch_add(chunk.size(), std::memory_order_relaxed);
    if (store) store->put(model_, chunk, got.vectors);
    for (std::size_t k = start; k < end; ++k) {
      vectors[missing[k]] = std::move(got.vectors[k - start]);
      if (k >= kept_from) to_memory_(text_of(missing[k]), vectors[missing[k]]);
    }
  }
  // Each text's vector; the last text of a vector takes it rather than a copy.
  std::vector<std::size_t> last_use(distinct.size());
  for (std::size_t i = 0; i < texts.size(); ++i) last_use[slot[i]] = i;
  embedding_outcome out;
  out.vectors.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (last_use[slot[i]] == i)
      out.vectors.push_back(std::move(vectors[slot[i]]));
    else
      out.vectors.push_back(vectors[slot[i]]);
  }
  return out;
}

}  // namespace sqlmorph::core
