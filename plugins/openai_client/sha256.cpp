#include "sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace sqlmorph::openai {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, 32> digest{};
  unsigned int size = 0;
  // EVP_Digest only fails when OpenSSL cannot provide SHA-256 at all (a broken installation or a
  // provider configuration without it); a cache key must never silently be something else.
  if (EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1 ||
      size != digest.size()) {
    throw std::runtime_error("SHA-256 is not available from OpenSSL (EVP_Digest failed)");
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * digest.size());
  for (const unsigned char byte : digest) {
    out.push_back(hex[byte >> 4]);
    out.push_back(hex[byte & 0xF]);
  }
  return out;
}

}  // namespace sqlmorph::openai
