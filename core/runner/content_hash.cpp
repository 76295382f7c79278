#include "runner/content_hash.hpp"

#include <fcntl.h>
#include <unistd.h>
// Header-only use of libxxhash-dev (nothing to link, in the CLI, the plugins' hosts and Python alike).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

namespace sqlmorph::core {

namespace {

std::string hex(XXH128_hash_t h) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

}  // namespace

std::string text_content_hash(std::string_view bytes) {
  return hex(XXH3_128bits(bytes.data(), bytes.size()));
}

std::pair<std::uint64_t, std::uint64_t> content_hash_128(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.low64, h.high64};
}

std::string file_content_hash(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  XXH3_state_t* state = XXH3_createState();
  if (state == nullptr || XXH3_128bits_reset(state) == XXH_ERROR) {
    ::close(fd);
    XXH3_freeState(state);
    return {};
  }
  std::vector<char> chunk(1 << 20);
  bool ok = true;
  while (true) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      break;
    }
    if (n == 0) break;
    XXH3_128bits_update(state, chunk.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  const XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  if (!ok) return {};
  return hex(h);
}

field_digest::field_digest() : state_(XXH3_createState()) {
  if (state_ == nullptr) throw std::bad_alloc();
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

field_digest::~field_digest() {
  XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

void field_digest::add(std::string_view field) {
  auto* state = static_cast<XXH3_state_t*>(state_);
  const std::uint64_t size = field.size();
  unsigned char length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<unsigned char>(size >> (8 * i));  // little-endian
  XXH3_128bits_update(state, length, sizeof length);
  XXH3_128bits_update(state, field.data(), field.size());
}

std::string field_digest::hex() const {
  return sqlmorph::core::hex(XXH3_128bits_digest(static_cast<const XXH3_state_t*>(state_)));
}

std::string content_hash_memo::hash_of(const std::filesystem::path& file) {
  std::error_code ec;
  const std::string key = std::filesystem::weakly_canonical(file, ec).string();
  std::shared_ptr<entry> e;
  {
    std::lock_guard lock(mutex_);
    auto& slot = entries_[ec ? file.string() : key];
    if (!slot) slot = std::make_shared<entry>();
    e = slot;
  }
  std::call_once(e->once, [&] { e->hash = file_content_hash(file); });
  return e->hash;
}

std::size_t content_hash_memo::files_hashed() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace sqlmorph::core
