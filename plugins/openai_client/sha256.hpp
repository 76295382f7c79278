#pragma once
// SHA-256 (FIPS 180-4), for cache keys that must not collide and must stay the same across
// compilers and runs (std::hash promises neither).

#include <string>
#include <string_view>

namespace sqlmorph::openai {

/// The digest of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace sqlmorph::openai
