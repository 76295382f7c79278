#include "reply_cache.hpp"

#include <chrono>
#include <stdexcept>

#include <sqlmorph/plugin.hpp>

#include "sqlite_store/statement.hpp"

namespace sqlmorph::openai {

namespace {

constexpr const char* schema_sql =
    "CREATE TABLE IF NOT EXISTS judge_replies ("
    "  model TEXT NOT NULL, base_url TEXT NOT NULL, temperature TEXT NOT NULL, options TEXT NOT NULL,"
    "  prompt_sha256 TEXT NOT NULL, vote INTEGER NOT NULL,"
    "  content TEXT NOT NULL, p_yes REAL, created TEXT NOT NULL DEFAULT (datetime('now')),"
    "  PRIMARY KEY (model, base_url, temperature, options, prompt_sha256, vote)) WITHOUT ROWID;";

void bind_key(sqlite_store::statement& s, const vote_key& k) {
  s.bind_text(1, k.model);
  s.bind_text(2, k.base_url);
  s.bind_text(3, k.temperature);
  s.bind_text(4, k.options);
  s.bind_text(5, k.prompt_sha256);
  s.bind_int(6, k.vote);
}

}  // namespace

// Unlike the embedding cache, no folder is made: a cache path whose folder does not exist refuses
// the judge when it is created.
reply_cache::reply_cache(const std::filesystem::path& file)
    : store_(file, {.label = "judge cache", .schema = schema_sql, .busy_timeout = std::chrono::seconds(30)}) {
}

std::optional<cached_reply> reply_cache::find(const vote_key& key) const {
  const std::lock_guard lock(mutex_);
  try {
    sqlite_store::statement s(
        store_,
        "SELECT content, p_yes FROM judge_replies WHERE model = ?1 AND base_url = ?2 AND "
        "temperature = ?3 AND options = ?4 AND prompt_sha256 = ?5 AND vote = ?6");
    bind_key(s, key);
    if (!s.step()) return std::nullopt;
    cached_reply out;
    out.content = s.column_text(0);
    if (!s.column_is_null(1)) out.p_yes = s.column_double(1);
    return out;
  } catch (const std::exception& e) {
    plugin::log(plugin::log_level::warn, std::string(e.what()) + " (" + store_.file().string() + ")");
    return std::nullopt;
  }
}

void reply_cache::store(const vote_key& key, const cached_reply& reply) const {
  const std::lock_guard lock(mutex_);
  try {
    sqlite_store::statement s(store_,
                              "INSERT OR REPLACE INTO judge_replies (model, base_url, temperature, options, "
                              "prompt_sha256, vote, content, p_yes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    bind_key(s, key);
    s.bind_text(7, reply.content);
    if (reply.p_yes) {
      s.bind_double(8, *reply.p_yes);
    } else {
      s.bind_null(8);
    }
    s.step();
  } catch (const std::exception& e) {
    plugin::log(plugin::log_level::warn, std::string(e.what()) + " (" + store_.file().string() + ")");
  }
}

}  // namespace sqlmorph::openai
