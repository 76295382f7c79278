#include "reply_cache.hpp"

#include <sqlite3.h>

#include <memory>
#include <stdexcept>

#include <sqlmorph/plugin.hpp>

namespace sqlmorph::openai {

namespace {

constexpr const char* schema_sql =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE IF NOT EXISTS judge_replies ("
    "  model TEXT NOT NULL, base_url TEXT NOT NULL, temperature TEXT NOT NULL, options TEXT NOT NULL,"
    "  prompt_sha256 TEXT NOT NULL, vote INTEGER NOT NULL,"
    "  content TEXT NOT NULL, p_yes REAL, created TEXT NOT NULL DEFAULT (datetime('now')),"
    "  PRIMARY KEY (model, base_url, temperature, options, prompt_sha256, vote)) WITHOUT ROWID;";

struct statement_deleter {
  void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
};
using statement = std::unique_ptr<sqlite3_stmt, statement_deleter>;

statement prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
    throw std::runtime_error(std::string("judge cache: ") + sqlite3_errmsg(db));
  }
  return statement(s);
}

void bind_key(sqlite3_stmt* s, const vote_key& k) {
  sqlite3_bind_text(s, 1, k.model.data(), static_cast<int>(k.model.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 2, k.base_url.data(), static_cast<int>(k.base_url.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 3, k.temperature.data(), static_cast<int>(k.temperature.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 4, k.options.data(), static_cast<int>(k.options.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 5, k.prompt_sha256.data(), static_cast<int>(k.prompt_sha256.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int(s, 6, k.vote);
}

}  // namespace

reply_cache::reply_cache(const std::filesystem::path& file) : file_(file) {
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::invalid_argument("cannot open the judge cache " + file.string() + ": " + message);
  }
  sqlite3_busy_timeout(db_, 30000);
  char* error = nullptr;
  if (sqlite3_exec(db_, schema_sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::invalid_argument("cannot use " + file.string() + " as the judge cache: " + message);
  }
}

reply_cache::~reply_cache() {
  sqlite3_close(db_);
}

std::optional<cached_reply> reply_cache::find(const vote_key& key) const {
  const std::lock_guard lock(mutex_);
  try {
    statement s = prepare(db_,
                          "SELECT content, p_yes FROM judge_replies WHERE model = ?1 AND base_url = ?2 AND "
                          "temperature = ?3 AND options = ?4 AND prompt_sha256 = ?5 AND vote = ?6");
    bind_key(s.get(), key);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return std::nullopt;
    cached_reply out;
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
    out.content.assign(text != nullptr ? text : "",
                       static_cast<std::size_t>(sqlite3_column_bytes(s.get(), 0)));
    if (sqlite3_column_type(s.get(), 1) != SQLITE_NULL) out.p_yes = sqlite3_column_double(s.get(), 1);
    return out;
  } catch (const std::exception& e) {
    plugin::log(plugin::log_level::warn, std::string(e.what()) + " (" + file_.string() + ")");
    return std::nullopt;
  }
}

void reply_cache::store(const vote_key& key, const cached_reply& reply) const {
  const std::lock_guard lock(mutex_);
  try {
    statement s = prepare(db_,
                          "INSERT OR REPLACE INTO judge_replies (model, base_url, temperature, options, "
                          "prompt_sha256, vote, content, p_yes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    bind_key(s.get(), key);
    sqlite3_bind_text(s.get(), 7, reply.content.data(), static_cast<int>(reply.content.size()),
                      SQLITE_TRANSIENT);
    if (reply.p_yes) {
      sqlite3_bind_double(s.get(), 8, *reply.p_yes);
    } else {
      sqlite3_bind_null(s.get(), 8);
    }
    if (sqlite3_step(s.get()) != SQLITE_DONE)
      throw std::runtime_error(std::string("judge cache: ") + sqlite3_errmsg(db_));
  } catch (const std::exception& e) {
    plugin::log(plugin::log_level::warn, std::string(e.what()) + " (" + file_.string() + ")");
  }
}

}  // namespace sqlmorph::openai
