#pragma once
// A large JSON document printed as nlohmann's dump(indent) prints it, with the elements of its
// long arrays formatted in parallel (a summary.json of many systems is tens of megabytes of text).

#include <string>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

/// dump_json(j, indent) (record_json.hpp), byte for byte, made on up to `threads` threads (0: one
/// per hardware thread); indent >= 0.
std::string pretty_json(const nlohmann::ordered_json& j, int indent, unsigned threads = 0);

}  // namespace sqlmorph::core
