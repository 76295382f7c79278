#include "runner/gold_disk_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>
#include <sqlmorph/hash.hpp>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "runner/outcome_serialization.hpp"

namespace sqlmorph::core {
namespace {

std::string hex128(std::uint64_t a, std::uint64_t b) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return buf;
}

std::string hash128(std::string_view text) {
  return hex128(hash_bytes(text, 0x5151515151515151ULL), hash_bytes(text, 0x2727272727272727ULL));
}

long long mtime_ns(const std::filesystem::path& p, std::error_code& ec) {
  const auto t = std::filesystem::last_write_time(p, ec);
  return static_cast<long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

}  // namespace

std::string file_content_hash(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::uint64_t a = 0x1234567890abcdefULL;
  std::uint64_t b = 0xfedcba0987654321ULL;
  std::string chunk(1 << 20, '\0');
  std::uint64_t total = 0;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    const std::string_view piece(chunk.data(), n);
    a = hash_bytes(piece, a);
    b = hash_bytes(piece, b ^ 0x9e3779b97f4a7c15ULL);
    total += n;
  }
  return hex128(hash_combine(a, total), hash_combine(b, total));
}

gold_disk_cache::gold_disk_cache(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw usage_error("cannot create the cache folder " + dir_.string() + ": " + ec.message());
  std::ifstream index(dir_ / "database-hashes.tsv");
  for (std::string line; std::getline(index, line);) {
    std::istringstream fields(line);
    std::string path;
    file_hash h;
    if (std::getline(fields, path, '\t') && fields >> h.size >> h.mtime_ns >> h.hash) hashes_[path] = h;
  }
}

gold_disk_cache::~gold_disk_cache() {
  try {
    save_index();
  } catch (const std::exception& e) {
    spdlog::warn("could not save the cache index: {}", e.what());
  }
}

void gold_disk_cache::save_index() {
  std::lock_guard lock(mutex_);
  if (!index_dirty_) return;
  const auto tmp = dir_ / ("database-hashes.tsv." + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::trunc);
    for (const auto& [path, h] : hashes_)
      out << path << '\t' << h.size << '\t' << h.mtime_ns << '\t' << h.hash << '\n';
  }
  std::error_code ec;
  std::filesystem::rename(tmp, dir_ / "database-hashes.tsv", ec);
  index_dirty_ = false;
}

std::string gold_disk_cache::database_hash(const std::string& db) {
  std::error_code ec;
  const auto path = std::filesystem::weakly_canonical(db, ec).string();
  const auto size = std::filesystem::file_size(db, ec);
  if (ec) return {};
  const long long mtime = mtime_ns(db, ec);
  {
    std::lock_guard lock(mutex_);
    auto it = hashes_.find(path);
    if (it != hashes_.end() && it->second.size == size && it->second.mtime_ns == mtime)
      return it->second.hash;
  }
  const std::string hash = file_content_hash(db);
  if (hash.empty()) return {};
  std::lock_guard lock(mutex_);
  hashes_[path] = {size, mtime, hash};
  index_dirty_ = true;
  return hash;
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

std::optional<query_outcome> gold_disk_cache::load(const query_target& where, std::string_view sql,
                                                   const exec_limits& limits) {
  if (!cacheable(where)) return std::nullopt;
  const std::string db_hash = database_hash(where.target);
  if (db_hash.empty()) return std::nullopt;
  const std::string key = key_text(where, db_hash, sql, limits);
  std::ifstream in(entry_path(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buf;
  buf << in.rdbuf();
  const std::string bytes = buf.str();
  // The entry starts with its full key: a hash collision can never return another query's result.
  if (bytes.size() < 8) return std::nullopt;
  std::uint64_t key_size = 0;
  std::memcpy(&key_size, bytes.data(), 8);
  if (bytes.size() < 8 + key_size || std::string_view(bytes).substr(8, key_size) != key) return std::nullopt;
  auto outcome = deserialize_outcome(std::string_view(bytes).substr(8 + key_size));
  if (outcome) ++hits_;
  return outcome;
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
  std::string bytes;
  const std::uint64_t key_size = key.size();
  bytes.append(reinterpret_cast<const char*>(&key_size), 8);
  bytes += key;
  serialize_outcome(outcome, bytes);
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
