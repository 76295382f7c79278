#include "eval/result_digest.hpp"

// Header-only use of libxxhash-dev, as in content_hash.cpp.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace sqlmorph::core {
namespace {

// Feeds the hash state through a buffer, so that a cell costs a copy of a few bytes rather than a
// call into the hash (a result of millions of cells is hashed in milliseconds).
class digest_stream {
 public:
  digest_stream() : state_(XXH3_createState()) {
    if (state_ == nullptr) throw std::bad_alloc();
    XXH3_128bits_reset(state_.get());
    buffer_.reserve(kBuffer);
  }
  void add(const void* bytes, std::size_t n) {
    if (buffer_.size() + n > kBuffer) flush();
    if (n > kBuffer) {
      XXH3_128bits_update(state_.get(), bytes, n);
      return;
    }
    const auto* p = static_cast<const unsigned char*>(bytes);
    buffer_.insert(buffer_.end(), p, p + n);
  }
  template <typename T>
  void add_number(T v) {
    add(&v, sizeof v);
  }
  // Length first, so that "ab","c" and "a","bc" differ.
  void add_text(std::string_view s) {
    add_number<std::uint64_t>(s.size());
    add(s.data(), s.size());
  }
  result_digest finish() {
    flush();
    const XXH128_hash_t h = XXH3_128bits_digest(state_.get());
    return {h.low64, h.high64};
  }

 private:
  static constexpr std::size_t kBuffer = 64 * 1024;
  struct free_state {
    void operator()(XXH3_state_t* s) const noexcept { XXH3_freeState(s); }
  };
  void flush() {
    if (!buffer_.empty()) XXH3_128bits_update(state_.get(), buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  std::unique_ptr<XXH3_state_t, free_state> state_;
  std::vector<unsigned char> buffer_;
};

}  // namespace

result_digest digest_of(const result& r) {
  digest_stream out;
  out.add_number<std::uint64_t>(r.column_count());
  for (const std::string& name : r.column_names()) out.add_text(name);
  out.add_number<std::uint64_t>(r.column_types().size());
  for (const std::string& type : r.column_types()) out.add_text(type);
  out.add_number<std::uint8_t>(r.truncated() ? 1 : 0);
  out.add_number<std::uint64_t>(r.cells().size());
  for (const value& v : r.cells()) {
    out.add_number(static_cast<std::uint8_t>(v.kind()));
    switch (v.kind()) {
      case value_kind::null:
        break;
      case value_kind::integer:
        out.add_number(v.as_integer());
        break;
      case value_kind::real: {
        std::uint64_t bits = 0;  // the bits: -0.0 and 0.0 (or two NaNs) count as different results
        const double d = v.as_real();
        std::memcpy(&bits, &d, sizeof bits);
        out.add_number(bits);
        break;
      }
      case value_kind::text:
      case value_kind::blob:
        out.add_text(v.bytes());
        break;
    }
  }
  return out.finish();
}

}  // namespace sqlmorph::core
