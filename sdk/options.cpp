#include "sqlmorph/options.hpp"

#include "sqlmorph/value.hpp"

namespace sqlmorph {

option_type parse_option_type(std::string_view name) noexcept {
  if (name == "bool") return option_type::boolean;
  if (name == "int") return option_type::integer;
  if (name == "double") return option_type::real;
  if (name == "string") return option_type::string;
  return option_type::component;
}

std::string option_value_to_string(const option_value& v) {
  struct visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return python_float_repr(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const component_ref& c) const { return c.name; }
  };
  return std::visit(visitor{}, v);
}

std::int64_t option_values::get_int_in(std::string_view name, std::int64_t low, std::int64_t high,
                                       std::string_view unit) const {
  const std::int64_t v = get_int(name);
  if (v < low || v > high) {
    throw std::invalid_argument("option " + std::string(name) + " must be in [" + std::to_string(low) + ", " +
                                std::to_string(high) + "]" + (unit.empty() ? "" : " " + std::string(unit)));
  }
  return v;
}

std::int64_t option_values::get_int_at_least(std::string_view name, std::int64_t low) const {
  const std::int64_t v = get_int(name);
  if (v < low)
    throw std::invalid_argument("option " + std::string(name) + " must be at least " + std::to_string(low));
  return v;
}

double option_values::get_double(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw std::invalid_argument("option '" + std::string(name) + "' is not set");
  if (const double* d = std::get_if<double>(&it->second)) return *d;
  if (const std::int64_t* i = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*i);
  throw std::invalid_argument("option '" + std::string(name) + "' has another type");
}

}  // namespace sqlmorph
