#pragma once
// Helpers shared by the test programs: where things are, building results and databases,
// running the sqlmorph executable.

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <libpq-fe.h>
#include <nlohmann/json.hpp>
#include <sqlmorph/result.hpp>

#include "backends/backend_routes.hpp"
#include "errors.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique_catalog.hpp"

namespace sqlmorph::test {

std::filesystem::path source_dir();
std::filesystem::path build_dir();
std::filesystem::path plugin_dir();
std::filesystem::path bad_plugin_dir();
std::filesystem::path sqlmorph_binary();

/// `../shared` next to the checkout, if present. When it is absent the caller skips with a visible
/// message ("SQLMORPH-SKIP: ..."); with SQLMORPH_REQUIRE_SHARED=1 (CI) its absence is a failure.
std::optional<std::filesystem::path> shared_dir();
/// Prints the skip line and returns true when the test must skip for lack of ../shared.
bool skip_without_shared(const char* what);

/// The project's plugins, loaded once.
const core::component_registry& registry();
/// The techniques of scripts/techniques/*.lua, declared through Lua as sqlmorph does.
const core::technique_catalog& catalog();
/// The reference techniques declared in C++ (tests/support/builtin_reference_techniques.cpp).
const core::technique_catalog& builtin_catalog();
/// Every query on the SQLite backend (database files), as a run without [backends] does.
std::shared_ptr<const core::backend_routes> sqlite_routes();
/// One assembled technique variant.
std::shared_ptr<const core::technique> technique(const std::string& name,
                                                 std::optional<bool> penalize = std::nullopt);

/// A cell written in a test: null, integer, real, text, or blob.
struct blob {
  std::string bytes;
};
using cell = std::variant<std::nullptr_t, long long, int, double, const char*, std::string, blob>;

result make_result(std::vector<std::string> names, const std::vector<std::vector<cell>>& rows);

/// A value as "KIND TEXT", for comparing backend results with expectations written as text:
/// "integer 1", "real 1.5", "text apple", "blob 00ff" (hex), "null".
std::string show(const value& v);

/// The message of the usage_error `f` throws, or "" if it throws none.
template <class F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const core::usage_error& e) {
    return e.what();
  }
  return "";
}

/// A directory removed (with its contents) when the object goes away.
class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

/// Creates a SQLite database file by executing `sql` (several statements allowed).
void create_sqlite(const std::filesystem::path& file, const std::string& sql);

/// The file's bytes (for byte-for-byte comparisons).
std::string file_bytes(const std::filesystem::path& file);

/// Writes `text` to `file` (binary, replacing it).
void write_file(const std::filesystem::path& file, const std::string& text);

/// A FIFO whose writer (a thread) writes `chunk` over and over until the reader goes away: an
/// endless input. Removed when the object goes away.
class endless_fifo {
 public:
  endless_fifo(std::filesystem::path file, std::string chunk);
  ~endless_fifo();
  endless_fifo(const endless_fifo&) = delete;
  endless_fifo& operator=(const endless_fifo&) = delete;
  const std::filesystem::path& path() const noexcept { return file_; }

 private:
  std::filesystem::path file_;
  std::atomic<bool> done_{false};
  std::thread writer_;
};

/// One JSON value per non-empty line (results.jsonl, cases files).
std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& file);

/// The throwaway PostgreSQL cluster the test fixture started (tests/servers/postgres.sh): where
/// its socket is and who its superuser is. Throws with a clear message when it is not running.
struct postgres_server {
  std::string host;  ///< the unix socket folder
  int port = 5432;
  std::string superuser;
  /// A libpq connection string to `dbname` (as `user`, the superuser by default).
  std::string conninfo(const std::string& dbname, const std::string& user = "") const;
};
const postgres_server& postgres();
/// Runs SQL (several statements allowed) on `dbname` as the superuser; throws with the server's
/// message on failure.
void pg_exec(const std::string& dbname, const std::string& sql);
/// The first column of the first row of a query run as the superuser ("" when no row).
std::string pg_value(const std::string& dbname, const std::string& sql);
/// Drops `dbname` if it exists and creates it empty (owned by the superuser).
void pg_recreate_database(const std::string& dbname);
/// Creates the login role `sqlmorph_reader` (no superuser, no write grants) if missing, and gives
/// it read access to every table of `dbname`'s public schema.
void pg_grant_reader(const std::string& dbname);

/// The backend tests' shop in PostgreSQL (table `items`, sequence `seq`): a digest that changes when
/// the rows of `items`, the relations of the public schema or the sequence change.
std::string pg_shop_fingerprint(const std::string& dbname);

/// A database file's bytes and the names in its folder: changes when the file, a journal or any new
/// file there does.
std::string folder_fingerprint(const std::filesystem::path& file);

/// A superuser session of its own on `dbname`, kept open: for holding advisory locks (and a
/// transaction) while the code under test runs. Throws with the server's message on failure.
class pg_session {
 public:
  explicit pg_session(const std::string& dbname);
  ~pg_session();
  pg_session(const pg_session&) = delete;
  pg_session& operator=(const pg_session&) = delete;
  /// The first column of the first row ("" when no row or not a query).
  std::string value(const std::string& sql);

 private:
  PGconn* conn_;
};

/// Polls `condition` every 20 ms until it holds (true) or `seconds` have passed (false).
bool eventually(const std::function<bool()>& condition, double seconds = 30);

/// Runs `run`, which must execute a query that waits for advisory lock `key` in `dbname` (e.g.
/// `SELECT 5 FROM (SELECT pg_advisory_xact_lock_shared(4711)) l`), while a session of this test holds
/// the lock and another thread stops the query `times` times with `how` (`pg_terminate_backend` or
/// `pg_cancel_backend`), each time once it waits, so surely while it runs. Stopped once, the query
/// must run again: that run is waited for, then let go. Returns the waiting sessions seen, as
/// "pid@transaction start" (a new session or a new transaction each time).
std::vector<std::string> pg_stop_waiting_query(const std::string& dbname, int key, const std::string& how,
                                               int times, const std::function<void()>& run);

/// Points unixODBC at the drivers registered for the tests (build/test-servers/odbc), for this
/// process and the programs it starts.
void use_test_odbc_config();

struct command_result {
  int exit_code = -1;
  std::string out;
  std::string err;
};
/// Runs the sqlmorph executable with `args` (no shell interpretation of the arguments).
command_result run_sqlmorph(const std::vector<std::string>& args, const std::filesystem::path& cwd = {});
/// Runs `binary` with `args`, capturing its output.
command_result run_program(const std::filesystem::path& binary, const std::vector<std::string>& args,
                           const std::filesystem::path& cwd = {});
/// Runs sqlmorph-load (next to the sqlmorph executable).
command_result run_loader(const std::vector<std::string>& args);

/// Starts the sqlmorph executable in the background (stdout and stderr to files); returns its pid.
int start_sqlmorph(const std::vector<std::string>& args, const std::filesystem::path& out_file,
                   const std::filesystem::path& err_file);
/// Starts `binary` in the background (stdout and stderr to files); returns its pid.
int start_program(const std::filesystem::path& binary, const std::vector<std::string>& args,
                  const std::filesystem::path& out_file, const std::filesystem::path& err_file);
/// sqlmorph-load's path (next to the sqlmorph executable).
std::filesystem::path loader_binary();
/// Waits for a started process; returns its exit code (128 + signal if killed).
int wait_for(int pid);

}  // namespace sqlmorph::test
