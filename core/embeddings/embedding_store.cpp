#include "embeddings/embedding_store.hpp"

#include <sqlite3.h>

#include <spdlog/spdlog.h>
#include <cstring>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {

class statement {
 public:
  statement(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("embedding cache: ") + sqlite3_errmsg(db));
    }
  }
  ~statement() { sqlite3_finalize(stmt_); }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  sqlite3_stmt* get() const noexcept { return stmt_; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

void exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error("embedding cache: " + message);
  }
}

}  // namespace

embedding_store::embedding_store(const std::filesystem::path& file) : file_(file) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw usage_error("cannot open the embedding cache " + file.string() + ": " + message);
  }
  sqlite3_busy_timeout(db_, 60'000);
  try {
    exec(db_, "PRAGMA journal_mode=WAL");
    exec(db_, "PRAGMA synchronous=NORMAL");
    exec(db_,
         "CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, text BLOB NOT NULL, vector BLOB NOT "
         "NULL, "
         "PRIMARY KEY (model, text)) WITHOUT ROWID");
  } catch (const std::exception& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw usage_error("cannot use the embedding cache " + file.string() + ": " + e.what());
  }
}

embedding_store::~embedding_store() {
  sqlite3_close(db_);
}

std::vector<std::optional<std::vector<double>>> embedding_store::get(std::string_view model,
                                                                     std::span<const std::string> texts) {
  std::vector<std::optional<std::vector<double>>> out(texts.size());
  const std::lock_guard lock(mutex_);
  try {
    const statement s(db_, "SELECT vector FROM embeddings WHERE model = ?1 AND text = ?2");
    sqlite3_bind_text(s.get(), 1, model.data(), static_cast<int>(model.size()), SQLITE_TRANSIENT);
    for (std::size_t i = 0; i < texts.size(); ++i) {
      sqlite3_bind_blob(s.get(), 2, texts[i].data(), static_cast<int>(texts[i].size()), SQLITE_STATIC);
      if (sqlite3_step(s.get()) == SQLITE_ROW) {
        const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(s.get(), 0));
        std::vector<double> v(bytes / sizeof(double));
        if (!v.empty()) std::memcpy(v.data(), sqlite3_column_blob(s.get(), 0), v.size() * sizeof(double));
        out[i] = std::move(v);
      }
      sqlite3_reset(s.get());
    }
  } catch (const std::exception& e) {
    spdlog::warn("{} (reading {}); embedding again", e.what(), file_.string());
  }
  return out;
}

void embedding_store::put(std::string_view model, std::span<const std::string> texts,
                          std::span<const std::vector<double>> vectors) {
  const std::lock_guard lock(mutex_);
  try {
    exec(db_, "BEGIN IMMEDIATE");
    try {
      const statement s(db_, "INSERT OR REPLACE INTO embeddings (model, text, vector) VALUES (?1, ?2, ?3)");
      sqlite3_bind_text(s.get(), 1, model.data(), static_cast<int>(model.size()), SQLITE_TRANSIENT);
      for (std::size_t i = 0; i < texts.size() && i < vectors.size(); ++i) {
        sqlite3_bind_blob(s.get(), 2, texts[i].data(), static_cast<int>(texts[i].size()), SQLITE_STATIC);
        sqlite3_bind_blob(s.get(), 3, vectors[i].data(), static_cast<int>(vectors[i].size() * sizeof(double)),
                          SQLITE_STATIC);
        if (sqlite3_step(s.get()) != SQLITE_DONE)
          throw std::runtime_error(std::string("embedding cache: ") + sqlite3_errmsg(db_));
        sqlite3_reset(s.get());
      }
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    exec(db_, "COMMIT");
  } catch (const std::exception& e) {
    spdlog::warn("{} (writing {}); vectors not cached", e.what(), file_.string());
  }
}

}  // namespace sqlmorph::core
