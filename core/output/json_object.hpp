#pragma once
// An nlohmann ordered_json object with room for its keys. An ordered object keeps its entries in a
// vector, and growing the vector copies the entries already there (their keys are const, so they
// cannot be moved), whole sub-documents included: an object that receives large values, or one
// made hundreds of thousands of times, is given its room first.

#include <cstddef>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

inline nlohmann::ordered_json json_object_with_room(std::size_t keys) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j.get_ref<nlohmann::ordered_json::object_t&>().reserve(keys);
  return j;
}

}  // namespace sqlmorph::core
