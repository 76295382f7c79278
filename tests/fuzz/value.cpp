// Value: Python's str(), the reference equality and its hash, on values built from the bytes.
// Invariants: equality is symmetric, equal values hash equally, every value but NaN equals
// itself, and repr(float) reads back as the same double.

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <sqlmorph/value.hpp>

#include "fuzz_support.hpp"

namespace {

using sqlmorph::value;

value make(FuzzedDataProvider& in, std::string& storage) {
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      return value::null();
    case 1:
      return value::integer(in.ConsumeIntegral<std::int64_t>());
    case 2:
      return value::real(in.ConsumeFloatingPoint<double>());
    case 3: {  // an integral real, to meet the integers
      const auto i = in.ConsumeIntegralInRange<std::int64_t>(-(std::int64_t{1} << 60), std::int64_t{1} << 60);
      return value::real(static_cast<double>(i));
    }
    case 4:
      storage = in.ConsumeRandomLengthString(64);
      return value::text(storage);
    default:
      storage = in.ConsumeRandomLengthString(64);
      return value::blob(storage);
  }
}

void check_alone(const value& v) {
  using namespace sqlmorph;
  (void)python_str(v);
  (void)python_type_name(v.kind());
  const bool nan = v.kind() == value_kind::real && std::isnan(v.as_real());
  fuzz::require(reference_equal(v, v) != nan, "a value equals itself unless it is NaN");
  if (v.kind() == value_kind::real && std::isfinite(v.as_real())) {
    const std::string repr = python_float_repr(v.as_real());
    fuzz::require(std::strtod(repr.c_str(), nullptr) == v.as_real(), "repr(float) reads back exactly");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  FuzzedDataProvider in(data, size);
  std::string sa, sb;
  const value a = make(in, sa);
  const value b = make(in, sb);
  check_alone(a);
  check_alone(b);
  const bool ab = reference_equal(a, b);
  fuzz::require(ab == reference_equal(b, a), "equality is symmetric");
  if (ab) fuzz::require(reference_hash(a) == reference_hash(b), "equal values hash equally");
  if (a.kind() == value_kind::integer && b.kind() == value_kind::real)
    fuzz::require(ab == integer_equals_real(a.as_integer(), b.as_real()), "integer = real is exact");
  return 0;
}
