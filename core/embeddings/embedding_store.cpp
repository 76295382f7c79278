#include "embeddings/embedding_store.hpp"

#include <spdlog/spdlog.h>
#include <chrono>
#include <cstring>

#include "errors.hpp"
#include "sqlite_store/statement.hpp"
#include "sqlite_store/write_transaction.hpp"

namespace sqlmorph::core {
namespace {

/// The file opened as the embedding cache; failures are usage errors worded as they always were
/// (the second form names the cache twice, as before the shared store).
sqlite_store::store_file open_store(const std::filesystem::path& file) {
  // Several runs may share the file: a writer waits up to a minute for another's batch rather than
  // drop its own. synchronous=NORMAL (safe in WAL mode) may lose the last batches on a power cut,
  // never the file, and those vectors are only embedded again.
  const sqlite_store::store_options options{
      .label = "embedding cache",
      .schema =
          "PRAGMA synchronous=NORMAL;"
          "CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, text BLOB NOT NULL, "
          "vector BLOB NOT NULL, PRIMARY KEY (model, text)) WITHOUT ROWID",
      .busy_timeout = std::chrono::seconds(60),
      .create_folders = true,
  };
  try {
    return sqlite_store::store_file(file, options);
  } catch (const sqlite_store::open_error& e) {
    if (e.failed_at() == sqlite_store::open_error::stage::open) throw usage_error(e.what());
    throw usage_error("cannot use the embedding cache " + file.string() + ": embedding cache: " + e.reason());
  }
}

}  // namespace

embedding_store::embedding_store(const std::filesystem::path& file) : store_(open_store(file)) {}

std::vector<std::optional<std::vector<double>>> embedding_store::get(std::string_view model,
                                                                     std::span<const std::string> texts) {
  std::vector<std::optional<std::vector<double>>> out(texts.size());
  const std::lock_guard lock(mutex_);
  try {
    // Texts are keys as blobs: SQLite never finds a text value equal to a blob, so binding them as
    // text would miss every entry already on disk.
    sqlite_store::statement s(store_, "SELECT vector FROM embeddings WHERE model = ?1 AND text = ?2");
    s.bind_text(1, model);
    for (std::size_t i = 0; i < texts.size(); ++i) {
      s.bind_blob(2, std::as_bytes(std::span(texts[i])));
      if (s.step()) {
        const std::span<const std::byte> bytes = s.column_blob(0);
        std::vector<double> v(bytes.size() / sizeof(double));
        if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
        out[i] = std::move(v);
      }
      s.reset();
    }
  } catch (const std::exception& e) {
    spdlog::warn("{} (reading {}); embedding again", e.what(), file().string());
  }
  return out;
}

void embedding_store::put(std::string_view model, std::span<const std::string> texts,
                          std::span<const std::vector<double>> vectors) {
  const std::lock_guard lock(mutex_);
  try {
    sqlite_store::write_transaction transaction(store_);
    {
      sqlite_store::statement s(
          store_, "INSERT OR REPLACE INTO embeddings (model, text, vector) VALUES (?1, ?2, ?3)");
      s.bind_text(1, model);
      for (std::size_t i = 0; i < texts.size() && i < vectors.size(); ++i) {
        s.bind_blob(2, std::as_bytes(std::span(texts[i])));
        s.bind_blob(3, std::as_bytes(std::span(vectors[i])));
        s.step();
        s.reset();
      }
    }
    transaction.commit();
  } catch (const std::exception& e) {
    spdlog::warn("{} (writing {}); vectors not cached", e.what(), file().string());
  }
}

}  // namespace sqlmorph::core
