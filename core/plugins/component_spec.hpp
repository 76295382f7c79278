#pragma once
// What a user writes to ask for a component: a registered name plus option values, where an
// option may itself be a component (e.g. the cell matcher of a row matcher).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>

namespace sqlmorph::core {

struct component_spec;
using spec_value =
    std::variant<bool, std::int64_t, double, std::string, std::shared_ptr<const component_spec>>;

struct component_spec {
  std::string name;
  std::map<std::string, spec_value, std::less<>> options;
  /// A component that already exists (e.g. one written in Lua): `name` then only identifies it in
  /// messages, and the registry hands out this instance, which must be of kind `instance_kind`.
  std::shared_ptr<const void> instance;
  std::string instance_kind;

  component_spec() = default;
  explicit component_spec(std::string n) : name(std::move(n)) {}
  component_spec(std::string n, std::map<std::string, spec_value, std::less<>> o)
      : name(std::move(n)), options(std::move(o)) {}

  component_spec& with(std::string option, spec_value v) {
    options[std::move(option)] = std::move(v);
    return *this;
  }
};

/// A canonical text of the spec (names and options in a fixed order): equal specs give equal keys.
std::string canonical_key(const component_spec& spec);

/// A short human form: `greedy_partial{cells=exact}`.
std::string describe(const component_spec& spec);

}  // namespace sqlmorph::core
