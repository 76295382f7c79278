#include "sqlite_store/write_transaction.hpp"

#include <sqlite3.h>

namespace sqlmorph::sqlite_store {

write_transaction::write_transaction(const store_file& file) : file_(file) {
  file_.exec("BEGIN IMMEDIATE");
}

write_transaction::~write_transaction() {
  // Its error is not worth an exception during unwinding: SQLite may have rolled back already.
  if (open_) sqlite3_exec(file_.native_handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void write_transaction::commit() {
  file_.exec("COMMIT");
  open_ = false;
}

}  // namespace sqlmorph::sqlite_store
