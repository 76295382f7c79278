#include "sqlmorph/result.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "sqlmorph/hash.hpp"

namespace sqlmorph {

std::string_view byte_arena::store(std::string_view bytes) {
  if (bytes.empty()) return std::string_view();
  if (bytes.size() > left_) {
    // Chunks start small and double up to max_chunk_size, so a result with a few short texts (most
    // query results) holds a few hundred bytes, not a full chunk. Large payloads get a chunk of
    // their own so small ones keep filling the current chunk.
    if (bytes.size() > max_chunk_size / 4) {
      auto chunk = std::make_unique<char[]>(bytes.size());
      std::memcpy(chunk.get(), bytes.data(), bytes.size());
      const std::string_view stored(chunk.get(), bytes.size());
      chunks_.push_back(std::move(chunk));
      stored_ += bytes.size();
      reserved_ += bytes.size();
      return stored;
    }
    next_chunk_ = std::max(next_chunk_, bytes.size());
    const std::size_t size = next_chunk_;
    next_chunk_ = std::min(next_chunk_ * 2, max_chunk_size);
    chunks_.push_back(std::make_unique<char[]>(size));
    cursor_ = chunks_.back().get();
    left_ = size;
    reserved_ += size;
  }
  std::memcpy(cursor_, bytes.data(), bytes.size());
  const std::string_view stored(cursor_, bytes.size());
  cursor_ += bytes.size();
  left_ -= bytes.size();
  stored_ += bytes.size();
  return stored;
}

void byte_arena::clear() noexcept {
  chunks_.clear();
  cursor_ = nullptr;
  left_ = 0;
  stored_ = 0;
  reserved_ = 0;
  next_chunk_ = first_chunk_size;
}

void result::set_columns(std::vector<std::string> names, std::vector<std::string> types) {
  names_ = std::move(names);
  types_ = std::move(types);
  if (!types_.empty()) types_.resize(names_.size());
}

void result::append(const value& v) {
  switch (v.kind()) {
    case value_kind::text:
      append_text(v.bytes());
      return;
    case value_kind::blob:
      append_blob(v.bytes());
      return;
    default:
      cells_.push_back(v);
      return;
  }
}

void result::keep_rows(std::size_t rows) noexcept {
  const std::size_t cells = rows * names_.size();
  if (cells < cells_.size()) cells_.resize(cells);
}

std::size_t result::memory_bytes() const noexcept {
  std::size_t bytes = cells_.capacity() * sizeof(value) + arena_.reserved_bytes();
  for (const auto& n : names_) bytes += n.capacity();
  return bytes;
}

result result::clone() const {
  result copy;
  copy.set_columns(names_, types_);
  copy.cells_.reserve(cells_.size());
  for (const value& v : cells_) copy.append(v);
  copy.truncated_ = truncated_;
  return copy;
}

bool rows_equal(std::span<const value> a, std::span<const value> b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!reference_equal(a[i], b[i])) return false;
  }
  return true;
}

std::uint64_t row_hash(std::span<const value> row) noexcept {
  std::uint64_t h = 0x726f77726f77726fULL ^ row.size();
  for (const value& v : row) h = hash_combine(h, reference_hash(v));
  return h;
}

namespace {

struct row_ref {
  std::span<const value> cells;
  std::uint64_t hash;
};
struct row_ref_hash {
  std::size_t operator()(const row_ref& r) const noexcept { return r.hash; }
};
struct row_ref_equal {
  bool operator()(const row_ref& a, const row_ref& b) const noexcept {
    return a.hash == b.hash && rows_equal(a.cells, b.cells);
  }
};

std::unordered_set<row_ref, row_ref_hash, row_ref_equal> row_set(const result& r) {
  std::unordered_set<row_ref, row_ref_hash, row_ref_equal> set;
  set.reserve(r.row_count());
  for (std::size_t i = 0; i < r.row_count(); ++i) set.insert({r.row(i), row_hash(r.row(i))});
  return set;
}

}  // namespace

bool rows_set_equal(const result& gold, const result& pred) {
  if (gold.row_count() == 0 || pred.row_count() == 0) return gold.row_count() == pred.row_count();
  // Rows of different widths never compare equal, so two non-empty results of different widths
  // have disjoint row sets.
  if (gold.column_count() != pred.column_count()) return false;
  const auto gold_set = row_set(gold);
  const auto pred_set = row_set(pred);
  if (gold_set.size() != pred_set.size()) return false;
  for (const auto& r : pred_set) {
    if (!gold_set.contains(r)) return false;
  }
  return true;
}

}  // namespace sqlmorph
