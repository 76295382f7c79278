#pragma once
/// \file options.hpp
/// Typed option values handed to a component when it is created.
///
/// A component declares its options (name, type, default, description) in its plugin manifest.
/// The host validates what the user wrote against the declarations — unknown names and wrong types
/// are refused before the component exists — fills in defaults, and passes a complete
/// `option_values` to the component's constructor.
///
/// Besides scalars, an option may name another component: its declared type is then a component
/// kind (for example `cell_matcher` or `embedder`) and the host passes the created instance.

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace sqlmorph {

/// A component handed to another component through an option.
struct component_ref {
  std::string kind;  ///< e.g. "cell_matcher"
  std::string name;  ///< registered name, for messages
  std::shared_ptr<const void> instance;
};

/// One option value.
using option_value = std::variant<bool, std::int64_t, double, std::string, component_ref>;

/// The scalar option types ("bool", "int", "double", "string"); any other declared type string is
/// a component kind.
enum class option_type { boolean, integer, real, string, component };

/// Parses a declared type; names that are not a scalar type are component kinds.
option_type parse_option_type(std::string_view name) noexcept;

/// Human-readable form of a value ("true", "3", "0.5", "text", or the component's name).
std::string option_value_to_string(const option_value& v);

/// The complete, validated option values of one component instance: every declared option is
/// present (defaults filled in by the host) and has its declared type. Accessors throw
/// `std::invalid_argument` when the name is missing or has another type — a programming error in
/// the component, reported by the host as a creation failure.
class option_values {
 public:
  option_values() = default;

  void set(std::string name, option_value v) { values_[std::move(name)] = std::move(v); }
  bool contains(std::string_view name) const { return values_.find(name) != values_.end(); }

  bool get_bool(std::string_view name) const { return get<bool>(name); }
  std::int64_t get_int(std::string_view name) const { return get<std::int64_t>(name); }
  /// An integer option the user may set only within [low, high]: outside it, throws
  /// `std::invalid_argument` ("option NAME must be in [LOW, HIGH]", then ` unit` when one is
  /// given), which the host reports with where the option was set.
  std::int64_t get_int_in(std::string_view name, std::int64_t low, std::int64_t high,
                          std::string_view unit = {}) const;
  /// The same with no upper bound ("option NAME must be at least LOW").
  std::int64_t get_int_at_least(std::string_view name, std::int64_t low) const;
  /// Accepts an integer value too.
  double get_double(std::string_view name) const;
  const std::string& get_string(std::string_view name) const { return get<std::string>(name); }

  /// The component passed for an option whose declared type is `T::kind_name`.
  template <class T>
  std::shared_ptr<const T> get_component(std::string_view name) const {
    const component_ref& ref = get<component_ref>(name);
    if (ref.kind != T::kind_name) {
      throw std::invalid_argument("option '" + std::string(name) + "' holds a " + ref.kind + ", not a " +
                                  T::kind_name);
    }
    return std::static_pointer_cast<const T>(ref.instance);
  }

  const std::map<std::string, option_value, std::less<>>& all() const noexcept { return values_; }

 private:
  template <class T>
  const T& get(std::string_view name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) throw std::invalid_argument("option '" + std::string(name) + "' is not set");
    const T* v = std::get_if<T>(&it->second);
    if (v == nullptr) throw std::invalid_argument("option '" + std::string(name) + "' has another type");
    return *v;
  }

  std::map<std::string, option_value, std::less<>> values_;
};

}  // namespace sqlmorph
