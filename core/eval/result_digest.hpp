#pragma once
// A result's contents as one XXH3-128 digest (field_digest, runner/content_hash.hpp): its column
// names and declared types, whether it was truncated, and every cell (kind and bits of a number,
// length and bytes of a text or blob). Equal digests stand for equal results — a 128-bit collision
// between two results of one question is not a practical concern (the gold cache trusts the same
// hash) — so scores computed for one result can be given to another with the same digest
// (equal_result_scores.hpp).

#include <string>

#include <sqlmorph/result.hpp>

namespace sqlmorph::core {

/// 32 hex digits.
std::string digest_of(const result& r);

}  // namespace sqlmorph::core
