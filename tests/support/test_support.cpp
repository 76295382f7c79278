#include "test_support.hpp"

#include <libpq-fe.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "builtin_reference_techniques.hpp"
#include "embeddings/embedding_setup.hpp"
#include "log/log.hpp"
#include "lua/script_host.hpp"

namespace sqlmorph::test {

std::filesystem::path source_dir() {
  return SQLMORPH_TEST_SOURCE_DIR;
}
std::filesystem::path build_dir() {
  return SQLMORPH_TEST_BUILD_DIR;
}
std::filesystem::path plugin_dir() {
  return SQLMORPH_TEST_PLUGIN_DIR;
}
std::filesystem::path bad_plugin_dir() {
  return SQLMORPH_TEST_BAD_PLUGIN_DIR;
}
std::filesystem::path sqlmorph_binary() {
  return SQLMORPH_TEST_BINARY;
}

std::optional<std::filesystem::path> shared_dir() {
  std::error_code ec;
  const auto dir = (source_dir().parent_path() / "shared").lexically_normal();
  if (std::filesystem::is_directory(dir / "parity", ec)) return dir;
  return std::nullopt;
}

bool skip_without_shared(const char* what) {
  if (shared_dir()) return false;
  const char* require = std::getenv("SQLMORPH_REQUIRE_SHARED");
  if (require != nullptr && std::string(require) == "1") {
    throw std::runtime_error(
        std::string("../shared is required (SQLMORPH_REQUIRE_SHARED=1) but missing for: ") + what);
  }
  std::cerr << "SQLMORPH-SKIP: " << what
            << ": ../shared (benchmarks and parity fixtures) is not next to the checkout\n";
  return true;
}

std::shared_ptr<const core::backend_routes> sqlite_routes() {
  static const auto routes = core::backend_routes::make(core::default_config(), registry());
  return routes;
}

const core::component_registry& registry() {
  static core::component_registry* reg = [] {
    auto* r = new core::component_registry();
    r->load_directories({plugin_dir()});
    // `default` is hash_trigram, as without a configuration; no cache wrapper here (tests of the
    // embedders count their requests; the cache has its own tests).
    core::install_embeddings(*r, core::embedding_config{}, std::nullopt, /*wrap=*/false);
    if (r->list().empty()) throw std::runtime_error("no plugins found in " + plugin_dir().string());
    return r;
  }();
  return *reg;
}

namespace {
// The techniques as sqlmorph declares them: the scripts of scripts/techniques, run in Lua.
struct scripted_techniques {
  core::config config;
  core::technique_catalog catalog;
  std::unique_ptr<core::script_host> host;
};
}  // namespace

const core::technique_catalog& catalog() {
  static scripted_techniques* scripted = [] {
    auto* s = new scripted_techniques;
    s->config = core::default_config();
    s->config.lua.technique_dirs = {source_dir() / "scripts" / "techniques"};
    s->config.lua.lib_dirs = {source_dir() / "scripts" / "lib"};
    s->host = std::make_unique<core::script_host>(s->config, registry(), s->catalog);
    s->host->load_technique_scripts();
    return s;
  }();
  return scripted->catalog;
}

const core::technique_catalog& builtin_catalog() {
  static const core::technique_catalog cat = [] {
    core::technique_catalog c;
    core::add_reference_techniques(c);
    return c;
  }();
  return cat;
}

std::shared_ptr<const core::technique> technique(const std::string& name, std::optional<bool> penalize) {
  const core::technique_spec* spec = catalog().find(name);
  if (spec == nullptr) throw std::runtime_error("unknown technique " + name);
  core::technique_spec s = *spec;
  if (penalize) {
    const core::component_info* info = registry().find("scorer", s.scorer.name);
    const core::option_decl* swept = info != nullptr ? info->sweepable_option() : nullptr;
    if (swept == nullptr) throw std::runtime_error(name + ": its scorer has no sweepable option");
    s.scorer.with(swept->name, *penalize);
  }
  return core::technique::assemble(s, registry());
}

std::string show(const value& v) {
  static constexpr char digits[] = "0123456789abcdef";
  switch (v.kind()) {
    case value_kind::null:
      return "null";
    case value_kind::blob: {
      std::string out = "blob ";
      for (const char ch : v.bytes()) {
        out += digits[static_cast<unsigned char>(ch) >> 4];
        out += digits[static_cast<unsigned char>(ch) & 0xf];
      }
      return out;
    }
    case value_kind::text:
      return "text " + std::string(v.bytes());
    default:
      return std::string(kind_name(v.kind())) + " " + python_str(v);
  }
}

result make_result(std::vector<std::string> names, const std::vector<std::vector<cell>>& rows) {
  result r;
  const std::size_t width = names.size();
  r.set_columns(std::move(names));
  for (const auto& row : rows) {
    if (row.size() != width) throw std::invalid_argument("row width differs from the column count");
    for (const cell& c : row) {
      struct visitor {
        result& r;
        void operator()(std::nullptr_t) const { r.append_null(); }
        void operator()(long long v) const { r.append_integer(v); }
        void operator()(int v) const { r.append_integer(v); }
        void operator()(double v) const { r.append_real(v); }
        void operator()(const char* v) const { r.append_text(v); }
        void operator()(const std::string& v) const { r.append_text(v); }
        void operator()(const blob& v) const { r.append_blob(v.bytes); }
      };
      std::visit(visitor{r}, c);
    }
  }
  return r;
}

temp_dir::temp_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "sqlmorph-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void create_sqlite(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open(file.c_str(), &db) != SQLITE_OK)
    throw std::runtime_error("cannot create " + file.string());
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  const std::string message = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  if (rc != SQLITE_OK) throw std::runtime_error("creating " + file.string() + ": " + message);
}

std::string file_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

endless_fifo::endless_fifo(std::filesystem::path file, std::string chunk) : file_(std::move(file)) {
  if (::mkfifo(file_.c_str(), 0600) != 0)
    throw std::runtime_error("mkfifo " + file_.string() + ": " + std::strerror(errno));
  std::signal(SIGPIPE, SIG_IGN);  // the reader going away ends the writer with EPIPE
  writer_ = std::thread([this, chunk = std::move(chunk)] {
    const int fd = ::open(file_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
      while (::write(fd, chunk.data(), chunk.size()) > 0) {
      }
      ::close(fd);
    }
    done_ = true;
  });
}

endless_fifo::~endless_fifo() {
  // A writer still waiting for a reader is let through (it then sees the reader gone).
  while (!done_) {
    const int fd = ::open(file_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  writer_.join();
  std::error_code ec;
  std::filesystem::remove(file_, ec);
}

std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

namespace {
int spawn(const std::filesystem::path& binary, const std::vector<std::string>& args,
          const std::filesystem::path& cwd, const std::filesystem::path& out_file,
          const std::filesystem::path& err_file) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(127);
    std::FILE* o = std::freopen(out_file.c_str(), "w", stdout);
    std::FILE* e = std::freopen(err_file.c_str(), "w", stderr);
    if (o == nullptr || e == nullptr) ::_exit(127);
    std::vector<char*> argv;
    const std::string bin = binary.string();
    argv.push_back(const_cast<char*>(bin.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}
}  // namespace

int start_sqlmorph(const std::vector<std::string>& args, const std::filesystem::path& out_file,
                   const std::filesystem::path& err_file) {
  return spawn(sqlmorph_binary(), args, {}, out_file, err_file);
}

int start_program(const std::filesystem::path& binary, const std::vector<std::string>& args,
                  const std::filesystem::path& out_file, const std::filesystem::path& err_file) {
  return spawn(binary, args, {}, out_file, err_file);
}

std::filesystem::path loader_binary() {
  return sqlmorph_binary().parent_path() / "sqlmorph-load";
}

int wait_for(int pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

command_result run_program(const std::filesystem::path& binary, const std::vector<std::string>& args,
                           const std::filesystem::path& cwd) {
  temp_dir tmp;
  const auto out_file = tmp.path() / "out";
  const auto err_file = tmp.path() / "err";
  command_result r;
  r.exit_code = wait_for(spawn(binary, args, cwd, out_file, err_file));
  r.out = file_bytes(out_file);
  r.err = file_bytes(err_file);
  return r;
}

command_result run_sqlmorph(const std::vector<std::string>& args, const std::filesystem::path& cwd) {
  return run_program(sqlmorph_binary(), args, cwd);
}

command_result run_loader(const std::vector<std::string>& args) {
  return run_program(loader_binary(), args, {});
}

}  // namespace sqlmorph::test

namespace sqlmorph::test {
namespace {

std::string pg_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  return out + "'";
}

struct pg_connection {
  PGconn* conn;
  explicit pg_connection(const std::string& dbname) : conn(PQconnectdb(postgres().conninfo(dbname).c_str())) {
    if (PQstatus(conn) != CONNECTION_OK) {
      const std::string message = PQerrorMessage(conn);
      PQfinish(conn);
      throw std::runtime_error("test PostgreSQL server: cannot connect to " + dbname + ": " + message);
    }
  }
  ~pg_connection() { PQfinish(conn); }
  pg_connection(const pg_connection&) = delete;
  pg_connection& operator=(const pg_connection&) = delete;
};

}  // namespace

std::string postgres_server::conninfo(const std::string& dbname, const std::string& user) const {
  return "host=" + pg_quote(host) + " port=" + std::to_string(port) + " dbname=" + pg_quote(dbname) +
         " user=" + pg_quote(user.empty() ? superuser : user);
}

const postgres_server& postgres() {
  static const postgres_server server = [] {
    const auto state = build_dir() / "test-servers" / "postgres.env";
    std::ifstream in(state);
    if (!in) {
      throw std::runtime_error(
          "the test PostgreSQL server is not running (" + state.string() +
          " is missing): run the tests through ctest, whose fixture 'servers: start postgres' "
          "starts it, or run tests/servers/postgres.sh start " +
          state.string());
    }
    postgres_server s;
    for (std::string line; std::getline(in, line);) {
      const auto eq = line.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = line.substr(0, eq);
      const std::string value = line.substr(eq + 1);
      if (key == "PG_HOST") s.host = value;
      if (key == "PG_PORT") s.port = std::stoi(value);
      if (key == "PG_SUPERUSER") s.superuser = value;
    }
    if (s.host.empty() || s.superuser.empty()) throw std::runtime_error("malformed " + state.string());
    return s;
  }();
  return server;
}

void pg_exec(const std::string& dbname, const std::string& sql) {
  pg_connection c(dbname);
  PGresult* r = PQexec(c.conn, sql.c_str());
  const ExecStatusType status = PQresultStatus(r);
  const std::string message = PQresultErrorMessage(r);
  PQclear(r);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw std::runtime_error("test PostgreSQL server: " + message + " (in: " + sql.substr(0, 200) + ")");
  }
}

std::string pg_value(const std::string& dbname, const std::string& sql) {
  pg_connection c(dbname);
  PGresult* r = PQexec(c.conn, sql.c_str());
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    const std::string message = PQresultErrorMessage(r);
    PQclear(r);
    throw std::runtime_error("test PostgreSQL server: " + message + " (in: " + sql.substr(0, 200) + ")");
  }
  std::string out = PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0) : "";
  PQclear(r);
  return out;
}

void pg_recreate_database(const std::string& dbname) {
  pg_exec("postgres", "DROP DATABASE IF EXISTS \"" + dbname + "\" WITH (FORCE)");
  pg_exec("postgres", "CREATE DATABASE \"" + dbname +
                          "\" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
}

void pg_grant_reader(const std::string& dbname) {
  // Test programs run in parallel: another one may create the role between the check and the
  // CREATE (then CREATE ROLE, or the catalog's unique index, reports that it exists).
  pg_exec("postgres",
          "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sqlmorph_reader') THEN "
          "CREATE ROLE sqlmorph_reader LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE; END IF; "
          "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$");
  pg_exec(dbname,
          "GRANT USAGE ON SCHEMA public TO sqlmorph_reader; "
          "GRANT SELECT ON ALL TABLES IN SCHEMA public TO sqlmorph_reader; "
          "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
}

std::string pg_shop_fingerprint(const std::string& dbname) {
  return pg_value(dbname,
                  "SELECT (SELECT md5(string_agg(i::text, ',' ORDER BY id)) FROM items i) || ':' || "
                  "(SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace) || ':' || "
                  "(SELECT last_value || '/' || is_called FROM seq)");
}

std::string folder_fingerprint(const std::filesystem::path& file) {
  std::string out = file_bytes(file);
  for (const auto& e : std::filesystem::directory_iterator(file.parent_path()))
    out += "|" + e.path().filename().string();
  return out;
}

pg_session::pg_session(const std::string& dbname) : conn_(PQconnectdb(postgres().conninfo(dbname).c_str())) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = PQerrorMessage(conn_);
    PQfinish(conn_);
    throw std::runtime_error("test PostgreSQL server: cannot connect to " + dbname + ": " + message);
  }
}

pg_session::~pg_session() {
  PQfinish(conn_);
}

std::string pg_session::value(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  const ExecStatusType status = PQresultStatus(r);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    const std::string message = PQresultErrorMessage(r);
    PQclear(r);
    throw std::runtime_error("test PostgreSQL server: " + message + " (in: " + sql.substr(0, 200) + ")");
  }
  std::string out =
      status == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0) : "";
  PQclear(r);
  return out;
}

bool eventually(const std::function<bool()>& condition, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::vector<std::string> pg_stop_waiting_query(const std::string& dbname, int key, const std::string& how,
                                               int times, const std::function<void()>& run) {
  pg_session holder(dbname);
  pg_session watcher(dbname);
  const std::string waiting_sql =
      "SELECT string_agg(l.pid || '@' || a.xact_start, ',') FROM pg_locks l JOIN pg_stat_activity a USING "
      "(pid) "
      "WHERE l.locktype = 'advisory' AND l.objid = " +
      std::to_string(key) +
      " AND NOT l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())";
  holder.value("SELECT pg_advisory_lock(" + std::to_string(key) + ")");
  std::vector<std::string> waiters;
  std::string error;
  std::thread stopper([&] {
    try {
      const int runs = times == 1 ? 2 : times;
      for (int i = 0; i < runs; ++i) {
        std::string w;
        const bool seen = eventually([&] {
          w = watcher.value(waiting_sql);
          return !w.empty() && (waiters.empty() || w != waiters.back());
        });
        if (!seen) break;  // no further run: let the query go
        waiters.push_back(w);
        if (i < times) watcher.value("SELECT " + how + "(" + w.substr(0, w.find('@')) + ")");
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    holder.value("SELECT pg_advisory_unlock_all()");
  });
  run();
  stopper.join();
  if (!error.empty()) throw std::runtime_error(error);
  return waiters;
}

void use_test_odbc_config() {
  const auto dir = build_dir() / "test-servers" / "odbc";
  ::setenv("ODBCSYSINI", dir.c_str(), 1);
  ::setenv("ODBCINI", (dir / "odbc.ini").c_str(), 1);
}

}  // namespace sqlmorph::test
