#include "runner/gold_disk_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "runner/content_hash.hpp"
#include "runner/outcome_serialization.hpp"

namespace sqlmorph::core {
namespace {

std::string hash128(std::string_view text) {
  return text_content_hash(text);
}  // XXH3-128

}  // namespace

gold_disk_cache::gold_disk_cache(std::filesystem::path dir, std::shared_ptr<content_hash_memo> hashes)
    : dir_(std::move(dir)), hashes_(std::move(hashes)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw usage_error("cannot create the cache folder " + dir_.string() + ": " + ec.message());
}

std::string gold_disk_cache::database_hash(const std::string& db) {
  return hashes_->hash_of(db);
}

std::string gold_disk_cache::key_text(const query_target& where, const std::string& db_hash,
                                      std::string_view sql, const exec_limits& limits) const {
  std::string key = where.backend->identity;
  key += '\n';
  key += db_hash;
  key += "\nrows=" + std::to_string(limits.max_rows) + " bytes=" + std::to_string(limits.max_bytes) +
         " timeout=" + std::to_string(limits.timeout_seconds) + "\n";
  key += sql;
  return key;
}

std::filesystem::path gold_disk_cache::entry_path(const std::string& key) const {
  const std::string h = hash128(key);
  return dir_ / h.substr(0, 2) / (h.substr(2) + ".bin");
}

std::string cache_entry_bytes(std::string_view key, const query_outcome& outcome) {
  std::string bytes;
  const std::uint64_t key_size = key.size();
  bytes.append(reinterpret_cast<const char*>(&key_size), 8);
  bytes += key;
  serialize_outcome(outcome, bytes);
  return bytes;
}

cache_entry_reading read_cache_entry(std::string_view bytes, std::string_view key) {
  cache_entry_reading r;
  std::uint64_t key_size = 0;
  if (bytes.size() >= 8) std::memcpy(&key_size, bytes.data(), 8);
  if (bytes.size() < 8 || key_size > bytes.size() - 8) {
    r.problem = "cut short inside its key";
  } else if (bytes.substr(8, key_size) != key) {
    r.problem = "holds another query's result";
  } else {
    r.outcome = deserialize_outcome(bytes.substr(8 + key_size));
    if (!r.outcome) r.problem = "its result is cut short or damaged";
  }
  return r;
}

std::optional<query_outcome> gold_disk_cache::load(const query_target& where, std::string_view sql,
                                                   const exec_limits& limits) {
  if (!cacheable(where)) return std::nullopt;
  const std::string db_hash = database_hash(where.target);
  if (db_hash.empty()) return std::nullopt;
  const std::string key = key_text(where, db_hash, sql, limits);
  const auto path = entry_path(key);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) return std::nullopt;
  if (!std::filesystem::is_regular_file(status)) {
    spdlog::warn("gold cache: ignoring {}: not a regular file", path.string());
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buf;
  buf << in.rdbuf();
  cache_entry_reading entry = read_cache_entry(buf.str(), key);
  if (!entry.outcome) {
    spdlog::warn("gold cache: ignoring the unreadable entry {} ({}); the gold query runs again",
                 path.string(), entry.problem);
    return std::nullopt;
  }
  ++hits_;
  return std::move(entry.outcome);
}

void gold_disk_cache::store(const query_target& where, std::string_view sql, const exec_limits& limits,
                            const query_outcome& outcome) {
  if (outcome.status != query_status::ok && outcome.status != query_status::error &&
      outcome.status != query_status::timeout)
    return;
  if (!cacheable(where)) return;
  const std::string db_hash = database_hash(where.target);
  if (db_hash.empty()) return;
  const std::string key = key_text(where, db_hash, sql, limits);
  const std::string bytes = cache_entry_bytes(key, outcome);
  const auto path = entry_path(key);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  const auto tmp = path.string() + ".tmp" + std::to_string(::getpid()) + "-" +
                   std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return;
  }
  std::filesystem::rename(tmp, path, ec);
  if (!ec) ++stores_;
}

}  // namespace sqlmorph::core
