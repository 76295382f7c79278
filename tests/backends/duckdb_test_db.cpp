#include "duckdb_test_db.hpp"

#include <doctest/doctest.h>

#include "duckdb_library.hpp"
#include "test_support.hpp"

namespace sqlmorph::test {

std::filesystem::path duckdb_library_path() {
  return plugin_dir() / "duckdb" / "libduckdb.so";
}

void create_duckdb(const std::filesystem::path& file, const std::string& sql) {
  using namespace duckdb_api;
  std::shared_ptr<const library> lib;
  try {
    lib = library::load(duckdb_library_path().string());
  } catch (const std::exception& e) {
    FAIL(e.what());
  }
  const functions& f = lib->api();
  database db = nullptr;
  char* error = nullptr;
  if (f.open_ext(file.c_str(), &db, nullptr, &error) != state::success) {
    const std::string message = error != nullptr ? error : "?";
    if (error != nullptr) f.free(error);
    FAIL("cannot create " << file.string() << ": " << message);
  }
  duckdb_api::connection conn = nullptr;
  REQUIRE(f.connect(db, &conn) == state::success);
  query_result res{};
  const bool ok = f.query(conn, sql.c_str(), &res) == state::success;
  const std::string message = ok ? "" : f.result_error(&res);
  f.destroy_result(&res);
  f.disconnect(&conn);
  f.close(&db);
  REQUIRE_MESSAGE(ok, "writing " << file.string() << ": " << message);
}

}  // namespace sqlmorph::test
