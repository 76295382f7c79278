// The pieces of the shared OpenAI client that need no server: the SHA-256 of cache keys, the
// Retry-After parser and the backoff delays.

#include <doctest/doctest.h>

#include <string>

#include "http_client.hpp"
#include "retry_policy.hpp"
#include "sha256.hpp"

using namespace sqlmorph::openai;

TEST_CASE("sha256 matches the FIPS 180-4 test vectors") {
  // Every byte value once, four times over: bytes above 0x7F and NULs are hashed as they are.
  std::string all_bytes;
  for (int round = 0; round < 4; ++round) {
    for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>(b));
  }
  const struct {
    std::string input;
    const char* digest;
  } cases[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
       "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
      {std::string(1000000, 'a'), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
      {std::string(1, '\0'), "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"},
      {all_bytes, "785b0751fc2c53dc14a4ce3d800e69ef9ce1009eb327ccf458afe09c242c26c9"},
  };
  for (const auto& c : cases) {
    INFO("input of ", c.input.size(), " bytes");
    CHECK(sha256_hex(c.input) == c.digest);
  }
}

TEST_CASE("Retry-After is read as seconds or as an HTTP date") {
  CHECK(parse_retry_after("3") == doctest::Approx(3.0));
  CHECK(parse_retry_after(" 0 ") == doctest::Approx(0.0));
  CHECK(parse_retry_after("1.5") == doctest::Approx(1.5));
  CHECK(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == doctest::Approx(0.0));  // in the past
  CHECK_FALSE(parse_retry_after("soon").has_value());
  CHECK_FALSE(parse_retry_after("-4").has_value());
  CHECK_FALSE(parse_retry_after("").has_value());
}

TEST_CASE("backoff doubles from the base delay, stays under the cap, jitters, and yields to Retry-After") {
  retry_policy p;
  p.base_delay = 1.0;
  p.max_delay = 5.0;
  for (int i = 0; i < 50; ++i) {
    const double first = retry_delay(p, 1, std::nullopt);
    CHECK(first >= 0.5);
    CHECK(first <= 1.0);
    const double third = retry_delay(p, 3, std::nullopt);
    CHECK(third >= 2.0);
    CHECK(third <= 4.0);
    const double tenth = retry_delay(p, 10, std::nullopt);
    CHECK(tenth >= 2.5);
    CHECK(tenth <= 5.0);
  }
  CHECK(retry_delay(p, 1, 7.0) == doctest::Approx(7.0));
  CHECK(retryable_status(429));
  CHECK(retryable_status(503));
  CHECK(retryable_status(408));
  CHECK_FALSE(retryable_status(400));
  CHECK_FALSE(retryable_status(401));
  CHECK_FALSE(retryable_status(404));
}
