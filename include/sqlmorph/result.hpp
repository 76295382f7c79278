#pragma once
/// \file result.hpp
/// The rows a query returned: column names, declared types, cells, and whether it was truncated.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "sqlmorph/byte_arena.hpp"
#include "sqlmorph/value.hpp"

namespace sqlmorph {

/// A query result. Cells are stored row-major in one vector of 16-byte `value`s; the text and blob
/// bytes they view are owned by the result's arena, so a result is move-only (use `clone()` for a
/// deep copy). A result with zero rows still has its column names.
///
/// Thread safety: a filled result may be read from several threads at once.
class result {
 public:
  result() = default;
  result(result&&) noexcept = default;
  result& operator=(result&&) noexcept = default;
  result(const result&) = delete;
  result& operator=(const result&) = delete;

  /// Sets the columns; must be called before any cell is appended. `types` may be empty (unknown)
  /// or hold one declared type per column ("" where the engine gives none).
  void set_columns(std::vector<std::string> names, std::vector<std::string> types = {});

  const std::vector<std::string>& column_names() const noexcept { return names_; }
  const std::vector<std::string>& column_types() const noexcept { return types_; }
  std::size_t column_count() const noexcept { return names_.size(); }
  std::size_t row_count() const noexcept { return names_.empty() ? 0 : cells_.size() / names_.size(); }
  bool empty() const noexcept { return cells_.empty(); }

  std::span<const value> row(std::size_t r) const noexcept {
    return {cells_.data() + r * names_.size(), names_.size()};
  }
  const value& cell(std::size_t r, std::size_t c) const noexcept { return cells_[r * names_.size() + c]; }
  std::span<const value> cells() const noexcept { return cells_; }

  /// Appending cells, row-major. Text and blob bytes are copied into the result's arena.
  void append_null() { cells_.push_back(value::null()); }
  void append_integer(std::int64_t v) { cells_.push_back(value::integer(v)); }
  void append_real(double v) { cells_.push_back(value::real(v)); }
  void append_text(std::string_view bytes) { cells_.push_back(value::text(arena_.store(bytes))); }
  void append_blob(std::string_view bytes) { cells_.push_back(value::blob(arena_.store(bytes))); }
  /// Appends a copy of `v` (its bytes are copied, so `v` may view foreign storage).
  void append(const value& v);
  /// Keeps the first `rows` rows and drops the cells after them (e.g. a row that went over a cap,
  /// complete or not). The dropped rows' bytes stay in the arena until the result goes away.
  void keep_rows(std::size_t rows) noexcept;
  void reserve_rows(std::size_t rows) { cells_.reserve(rows * names_.size()); }

  /// True when the engine had more rows (or bytes) than the caps allowed and the rest was dropped.
  bool truncated() const noexcept { return truncated_; }
  void set_truncated(bool t) noexcept { truncated_ = t; }

  /// Bytes of text and blob payload held by this result.
  std::size_t payload_bytes() const noexcept { return arena_.stored_bytes(); }
  /// Approximate memory held: cells, payload arena and column names.
  std::size_t memory_bytes() const noexcept;

  /// A deep copy.
  result clone() const;

 private:
  std::vector<std::string> names_;
  std::vector<std::string> types_;
  std::vector<value> cells_;
  byte_arena arena_;
  bool truncated_ = false;
};

/// Row tuple equality under reference equality (same length, pairwise equal).
bool rows_equal(std::span<const value> a, std::span<const value> b) noexcept;

/// A hash of a row tuple consistent with rows_equal.
std::uint64_t row_hash(std::span<const value> row) noexcept;

/// EX of TECHNIQUES.md §2: the *set* of gold row tuples equals the set of predicted row tuples
/// (duplicates and row order ignored, column order matters, reference equality).
bool rows_set_equal(const result& gold, const result& pred);

}  // namespace sqlmorph
