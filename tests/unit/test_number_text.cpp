// Numbers as servers send them in text: the SDK's parsing that every backend plugin shares.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <sqlmorph/number_text.hpp>

using namespace sqlmorph;

TEST_CASE("parse_int64 takes a whole decimal int64 and nothing else") {
  std::int64_t i = 7;
  CHECK((parse_int64("-12", i) && i == -12));
  CHECK((parse_int64("9223372036854775807", i) && i == 9223372036854775807LL));
  CHECK((parse_int64("-9223372036854775808", i) && i == std::numeric_limits<std::int64_t>::min()));
  CHECK_FALSE(parse_int64("9223372036854775808", i));  // beyond int64
  CHECK_FALSE(parse_int64("", i));
  CHECK_FALSE(parse_int64("+1", i));
  CHECK_FALSE(parse_int64(" 1", i));
  CHECK_FALSE(parse_int64("1.0", i));
  CHECK_FALSE(parse_int64("12abc", i));
}

TEST_CASE("parse_double gives the nearest double, beyond double's range too") {
  CHECK(parse_double("1.5") == 1.5);
  CHECK(parse_double("-2.5e3") == -2500.0);
  CHECK(parse_double("0.1") == 0.1);
  CHECK(parse_double("Infinity") == std::numeric_limits<double>::infinity());  // PostgreSQL's text
  CHECK(parse_double("-Infinity") == -std::numeric_limits<double>::infinity());
  CHECK(parse_double("inf") == std::numeric_limits<double>::infinity());
  const auto nan = parse_double("NaN");
  REQUIRE(nan.has_value());
  CHECK(std::isnan(*nan));
  // A numeric of hundreds of digits: an infinity; a tiny one: zero (or the nearest subnormal).
  CHECK(parse_double("1" + std::string(400, '0')) == std::numeric_limits<double>::infinity());
  CHECK(parse_double("-1e400") == -std::numeric_limits<double>::infinity());
  CHECK(parse_double("1e-400") == 0.0);
  CHECK(parse_double("-0." + std::string(400, '0') + "1") == 0.0);
  CHECK(std::signbit(*parse_double("-1e-400")));
  CHECK(parse_double("4.9e-324") == std::numeric_limits<double>::denorm_min());
  CHECK_FALSE(parse_double("").has_value());
  CHECK_FALSE(parse_double("1.5x").has_value());
  CHECK_FALSE(parse_double("abc").has_value());
  CHECK_FALSE(parse_double(" 1").has_value());
}

TEST_CASE("parse_integral_decimal keeps integral decimals exact and refuses the rest") {
  std::int64_t i = 7;
  CHECK((parse_integral_decimal("12.000", i) && i == 12));
  CHECK((parse_integral_decimal("-0.00", i) && i == 0));
  CHECK((parse_integral_decimal("1.5e3", i) && i == 1500));
  CHECK((parse_integral_decimal("+42", i) && i == 42));
  CHECK((parse_integral_decimal("9223372036854775807.0", i) && i == 9223372036854775807LL));
  CHECK((parse_integral_decimal("-9223372036854775808", i) && i == std::numeric_limits<std::int64_t>::min()));
  CHECK_FALSE(parse_integral_decimal("9223372036854775808", i));
  CHECK_FALSE(parse_integral_decimal("1e19", i));
  CHECK_FALSE(parse_integral_decimal("12.5", i));
  CHECK_FALSE(parse_integral_decimal("1e-1", i));
  CHECK_FALSE(parse_integral_decimal("", i));
  CHECK_FALSE(parse_integral_decimal(".", i));
  CHECK_FALSE(parse_integral_decimal("1e", i));
  CHECK_FALSE(parse_integral_decimal("NaN", i));
}
