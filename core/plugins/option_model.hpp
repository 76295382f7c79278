#pragma once
// The one place that knows what a declared option type accepts: the text of a manifest default
// and the value a user gives (from TOML, the Python API or Lua). The loader, the registry and the
// Lua constructors all ask here, so a type means the same everywhere.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <sqlmorph/options.hpp>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core {

struct option_decl;

/// True for bool, int, double and string; false for a component kind.
bool is_scalar(option_type type) noexcept;

/// The value a manifest default text stands for, or nullopt when the text is not a valid value of
/// the type. A component option's default names a component (any text is accepted here; the name is
/// resolved when the component is created).
std::optional<spec_value> parse_option_default(option_type type, std::string_view text);

/// "a bool", "an int", "a double", "a string" or "a component": what a given value is, for messages.
std::string spec_value_type(const spec_value& v);

/// The scalar value of `v` for the scalar option `decl`: an int is accepted for a double, and a
/// whole double for an int. Throws usage_error "WHO: option 'NAME' must be of type TYPE, got a ..."
/// otherwise.
option_value checked_scalar_value(const std::string& who, const option_decl& decl, const spec_value& v);

/// The component spec `v` stands for, for the component option `decl`: a name (the component with
/// its default options) or a full spec. Throws usage_error with the same message as
/// checked_scalar_value for any other value.
std::shared_ptr<const component_spec> checked_component_value(const std::string& who, const option_decl& decl,
                                                              const spec_value& v);

}  // namespace sqlmorph::core
