#pragma once
// A write transaction on a cache's file: every row of a batch is stored, or none is.

#include "sqlite_store/store_file.hpp"

namespace sqlmorph::sqlite_store {

/// BEGIN IMMEDIATE when made: the write lock is taken up front (waiting up to the busy timeout),
/// so another process's writer cannot make the batch fail half-way. commit() keeps the writes;
/// going out of scope without it (an exception, a failed COMMIT) rolls them back, so the
/// connection is never left inside a transaction. Use it under the lock that guards its file.
class write_transaction {
 public:
  /// Throws std::runtime_error "LABEL: REASON" when the write lock cannot be had.
  explicit write_transaction(const store_file& file);
  ~write_transaction();
  write_transaction(const write_transaction&) = delete;
  write_transaction& operator=(const write_transaction&) = delete;

  /// Throws std::runtime_error "LABEL: REASON"; the writes are then rolled back.
  void commit();

 private:
  const store_file& file_;
  bool open_ = true;
};

}  // namespace sqlmorph::sqlite_store
