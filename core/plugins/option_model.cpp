#include "plugins/option_model.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "errors.hpp"
#include "plugins/plugin_loader.hpp"

namespace sqlmorph::core {
namespace {

std::optional<std::int64_t> parse_int(std::string_view text) {
  // Digits with an optional leading '-': no '+', spaces or hexadecimal, as in TOML.
  const std::size_t first = (!text.empty() && text[0] == '-') ? 1 : 0;
  if (first >= text.size() || !std::all_of(text.begin() + static_cast<long>(first), text.end(),
                                           [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string s(text);  // strtod needs a terminated string
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

usage_error wrong_type(const std::string& who, const option_decl& decl, const spec_value& v) {
  return usage_error(who + ": option '" + decl.name + "' must be of type " + decl.type + ", got " +
                     spec_value_type(v));
}

}  // namespace

bool is_scalar(option_type type) noexcept {
  return type != option_type::component;
}

std::optional<spec_value> parse_option_default(option_type type, std::string_view text) {
  switch (type) {
    case option_type::boolean:
      if (text == "true") return spec_value(true);
      if (text == "false") return spec_value(false);
      return std::nullopt;
    case option_type::integer:
      if (auto v = parse_int(text)) return spec_value(*v);
      return std::nullopt;
    case option_type::real:
      if (auto v = parse_double(text)) return spec_value(*v);
      return std::nullopt;
    case option_type::string:
      return spec_value(std::string(text));
    case option_type::component:
      return spec_value(std::make_shared<const component_spec>(std::string(text)));
  }
  return std::nullopt;
}

std::string spec_value_type(const spec_value& v) {
  switch (v.index()) {
    case 0:
      return "a bool";
    case 1:
      return "an int";
    case 2:
      return "a double";
    case 3:
      return "a string";
    default:
      return "a component";
  }
}

option_value checked_scalar_value(const std::string& who, const option_decl& decl, const spec_value& v) {
  switch (decl.parsed_type) {
    case option_type::boolean:
      if (const bool* b = std::get_if<bool>(&v)) return *b;
      break;
    case option_type::integer:
      if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return *i;
      // TOML and Lua may hand a whole number over as a double (e.g. 3.0).
      if (const double* d = std::get_if<double>(&v);
          d != nullptr && *d == static_cast<double>(static_cast<std::int64_t>(*d)))
        return static_cast<std::int64_t>(*d);
      break;
    case option_type::real:
      if (const double* d = std::get_if<double>(&v)) return *d;
      if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
      break;
    case option_type::string:
      if (const std::string* s = std::get_if<std::string>(&v)) return *s;
      break;
    case option_type::component:
      break;
  }
  throw wrong_type(who, decl, v);
}

std::shared_ptr<const component_spec> checked_component_value(const std::string& who, const option_decl& decl,
                                                              const spec_value& v) {
  if (decl.parsed_type == option_type::component) {
    if (const std::string* s = std::get_if<std::string>(&v))
      return std::make_shared<const component_spec>(*s);
    if (const auto* c = std::get_if<std::shared_ptr<const component_spec>>(&v)) return *c;
  }
  throw wrong_type(who, decl, v);
}

}  // namespace sqlmorph::core
