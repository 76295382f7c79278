#pragma once
/// \file row_sink.hpp
/// Where a backend puts the rows it fetches: the one place that enforces the row and byte caps of
/// `exec_limits`, so every engine cuts a result the same way and says so in the same words.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sqlmorph/query.hpp"
#include "sqlmorph/result.hpp"

namespace sqlmorph {

/// Receives the columns and rows of one statement. A backend calls `begin_row()` before fetching
/// each row, adds the row's cells, then `end_row()`; it stops fetching (and, on a server, cancels
/// the statement) as soon as `full()` is true. When a cap is reached the result keeps only whole
/// rows and is marked truncated, and `execute` reports it as `ok` with the cap's message.
class row_sink {
 public:
  row_sink(result& rows, const exec_limits& limits) noexcept : rows_(rows), limits_(limits) {}
  row_sink(const row_sink&) = delete;
  row_sink& operator=(const row_sink&) = delete;

  /// The statement's column names and the engine's type names (call once, before the rows).
  void set_columns(std::vector<std::string> names, std::vector<std::string> types);
  /// Whether set_columns was called: a statement that never gives columns is not a query.
  bool has_columns() const noexcept { return has_columns_; }

  /// Before fetching a row: false when the row cap is reached (the result is then marked truncated
  /// and the backend must stop fetching).
  bool begin_row();
  /// After the row's last cell.
  void end_row() noexcept { ++rows_fetched_; }

  void null() { rows_.append_null(); }
  void integer(std::int64_t v) { rows_.append_integer(v); }
  void real(double v) { rows_.append_real(v); }
  /// Text and blob cells count against the byte cap. The size is checked before the bytes are
  /// copied; false when the cell goes over the cap: the row is dropped and fetching must stop.
  bool text(std::string_view bytes);
  bool blob(std::string_view bytes);

  /// For backends that convert cells themselves (server text formats): they append to `cells()`
  /// and report the payload bytes of each cell with `count_bytes`, which returns false (and drops
  /// the row) when the byte cap is passed.
  result& cells() noexcept { return rows_; }
  bool count_bytes(std::uint64_t n);
  /// Payload bytes still allowed before the byte cap (for reading a long cell in chunks).
  std::uint64_t bytes_left() const noexcept;

  /// The statement runs again from its start (a retry inside the hook): forgets the rows and
  /// bytes fetched so far, keeps nothing of the first run.
  void restart();

  /// A cap was reached: stop fetching.
  bool full() const noexcept { return !cap_message_.empty(); }
  /// "more than N rows (row cap)" / "more than N bytes of text (byte cap)", or empty.
  const std::string& cap_message() const noexcept { return cap_message_; }
  std::uint64_t rows_fetched() const noexcept { return rows_fetched_; }

 private:
  bool over_bytes_();

  result& rows_;
  const exec_limits& limits_;
  bool has_columns_ = false;
  std::uint64_t rows_fetched_ = 0;
  std::uint64_t bytes_ = 0;
  std::string cap_message_;
};

}  // namespace sqlmorph
