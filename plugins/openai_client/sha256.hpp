#pragma once
// SHA-256 (OpenSSL's libcrypto), for cache keys that must not collide and must stay the same across
// compilers and runs (std::hash promises neither).

#include <string>
#include <string_view>

namespace sqlmorph::openai {

/// The digest of `data` (every byte, NULs included) as 64 lower-case hex digits. Throws
/// std::runtime_error only if OpenSSL cannot compute SHA-256.
std::string sha256_hex(std::string_view data);

}  // namespace sqlmorph::openai
