// The typed option model (core/plugins/option_model): which manifest default texts each declared
// type accepts, and how a given value is checked against a declaration, with one message format.

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "errors.hpp"
#include "plugins/option_model.hpp"
#include "plugins/plugin_loader.hpp"

using sqlmorph::option_type;
using sqlmorph::option_value;
using sqlmorph::core::component_spec;
using sqlmorph::core::option_decl;
using sqlmorph::core::spec_value;
using sqlmorph::core::usage_error;

namespace {
option_decl declared(const std::string& name, const std::string& type) {
  return option_decl{name, type, sqlmorph::parse_option_type(type), std::nullopt, "for the test"};
}
bool default_accepted(option_type type, const std::string& text) {
  return sqlmorph::core::parse_option_default(type, text).has_value();
}
}  // namespace

TEST_CASE("declared type strings parse once into option types, other names are component kinds") {
  CHECK(sqlmorph::parse_option_type("bool") == option_type::boolean);
  CHECK(sqlmorph::parse_option_type("int") == option_type::integer);
  CHECK(sqlmorph::parse_option_type("double") == option_type::real);
  CHECK(sqlmorph::parse_option_type("string") == option_type::string);
  CHECK(sqlmorph::parse_option_type("cell_matcher") == option_type::component);
  CHECK(sqlmorph::core::is_scalar(option_type::real));
  CHECK_FALSE(sqlmorph::core::is_scalar(option_type::component));
}

TEST_CASE("a manifest default text is accepted only when it is a value of the declared type") {
  CHECK(default_accepted(option_type::boolean, "true"));
  CHECK(default_accepted(option_type::boolean, "false"));
  CHECK_FALSE(default_accepted(option_type::boolean, "yes"));
  CHECK_FALSE(default_accepted(option_type::boolean, "1"));

  CHECK(default_accepted(option_type::integer, "42"));
  CHECK(default_accepted(option_type::integer, "-7"));
  CHECK_FALSE(default_accepted(option_type::integer, ""));
  CHECK_FALSE(default_accepted(option_type::integer, "-"));
  CHECK_FALSE(default_accepted(option_type::integer, "1.5"));
  CHECK_FALSE(default_accepted(option_type::integer, "99999999999999999999"));  // does not fit

  CHECK(default_accepted(option_type::real, "0.5"));
  CHECK(default_accepted(option_type::real, "3"));
  CHECK(default_accepted(option_type::real, "1e-3"));
  CHECK_FALSE(default_accepted(option_type::real, ""));
  CHECK_FALSE(default_accepted(option_type::real, "0.5x"));

  CHECK(default_accepted(option_type::string, ""));
  CHECK(default_accepted(option_type::string, "any text"));
  CHECK(default_accepted(option_type::component, "exact"));
}

TEST_CASE("a default text becomes a value of the declared type") {
  using sqlmorph::core::parse_option_default;
  CHECK(std::get<bool>(*parse_option_default(option_type::boolean, "true")) == true);
  CHECK(std::get<std::int64_t>(*parse_option_default(option_type::integer, "-7")) == -7);
  CHECK(std::get<double>(*parse_option_default(option_type::real, "0.25")) == 0.25);
  CHECK(std::get<std::string>(*parse_option_default(option_type::string, "x")) == "x");
  const spec_value component = *parse_option_default(option_type::component, "exact");
  CHECK(std::get<std::shared_ptr<const component_spec>>(component)->name == "exact");
}

TEST_CASE("a value of the wrong type is refused with a message naming the option and both types") {
  const option_decl flag = declared("strict", "bool");
  CHECK_THROWS_WITH_AS(
      sqlmorph::core::checked_scalar_value("row_matcher 'x'", flag, spec_value(std::int64_t{1})),
      "row_matcher 'x': option 'strict' must be of type bool, got an int", usage_error);
  const option_decl count = declared("limit", "int");
  CHECK_THROWS_WITH_AS(sqlmorph::core::checked_scalar_value("scorer 'y'", count, spec_value(1.5)),
                       "scorer 'y': option 'limit' must be of type int, got a double", usage_error);
  const option_decl text = declared("path", "string");
  CHECK_THROWS_WITH_AS(sqlmorph::core::checked_scalar_value("backend 'z'", text, spec_value(true)),
                       "backend 'z': option 'path' must be of type string, got a bool", usage_error);
}

TEST_CASE("an int is accepted for a double, and a whole double for an int") {
  const option_value real =
      sqlmorph::core::checked_scalar_value("w", declared("tolerance", "double"), spec_value(std::int64_t{2}));
  CHECK(std::get<double>(real) == 2.0);
  const option_value integer =
      sqlmorph::core::checked_scalar_value("w", declared("limit", "int"), spec_value(3.0));
  CHECK(std::get<std::int64_t>(integer) == 3);
}

TEST_CASE("a component option takes a component's name or its spec, nothing else") {
  const option_decl cells = declared("cells", "cell_matcher");
  CHECK(sqlmorph::core::checked_component_value("w", cells, spec_value(std::string("exact")))->name ==
        "exact");
  const auto spec = std::make_shared<const component_spec>("numeric");
  CHECK(sqlmorph::core::checked_component_value("w", cells, spec_value(spec)) == spec);
  CHECK_THROWS_WITH_AS(sqlmorph::core::checked_component_value("row_matcher 'x'", cells, spec_value(0.5)),
                       "row_matcher 'x': option 'cells' must be of type cell_matcher, got a double",
                       usage_error);
}

TEST_CASE("a component reads a bounded integer option with one message format") {
  sqlmorph::option_values o;
  o.set("n", std::int64_t{5});
  CHECK(o.get_int_in("n", 5, 5) == 5);
  CHECK(o.get_int_at_least("n", 5) == 5);
  const auto message = [&](auto read) {
    try {
      read();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(message([&] { o.get_int_in("n", 6, 10); }) == "option n must be in [6, 10]");
  CHECK(message([&] { o.get_int_in("n", 0, 4, "seconds"); }) == "option n must be in [0, 4] seconds");
  CHECK(message([&] { o.get_int_at_least("n", 6); }) == "option n must be at least 6");
  // A value beyond an int's range is refused, not cut down to one that passes.
  o.set("n", std::int64_t{(std::int64_t{1} << 32) + 3});
  CHECK(message([&] { o.get_int_in("n", 0, 15); }) == "option n must be in [0, 15]");
  CHECK(message([&] { o.get_int_in("missing", 0, 1); }) == "option 'missing' is not set");
}
