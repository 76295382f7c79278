#pragma once
// Value normalizers: each rewrites cells one at a time before matching.

#include <sqlmorph/normalizer.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::normalizers {

/// Text that reads as a number becomes that number: "42" → 42, " -1.5e3 " → -1500.0. Integers that
/// fit 64 bits stay integers; other numerals become reals. Text that is not a numeral is unchanged,
/// as are NULL, numbers and blobs. Together with reference equality this gives 1 == 1.0 == "1".
class numbers_from_text final : public value_normalizer {
 public:
  explicit numbers_from_text(const option_values& o) : trim_(o.get_bool("trim")) {}

 protected:
  void normalize_value_(const value& in, result& out) const override;

 private:
  bool trim_;
};

/// Removes leading and trailing whitespace from text.
class trim_text final : public value_normalizer {
 public:
  explicit trim_text(const option_values&) {}

 protected:
  void normalize_value_(const value& in, result& out) const override;
};

/// Lower-cases text exactly as Python's str.lower() does (full Unicode mappings).
class case_fold final : public value_normalizer {
 public:
  explicit case_fold(const option_values&) {}

 protected:
  void normalize_value_(const value& in, result& out) const override;
};

/// Rounds reals to `digits` decimal places (half away from zero), so reals that differ by less
/// than the rounding step usually compare equal. Two reals on either side of a rounding boundary
/// (0.12345 vs 0.12344 at 4 digits) still differ: this is rounding, not a tolerance.
class round_reals final : public value_normalizer {
 public:
  explicit round_reals(const option_values& o);

 protected:
  void normalize_value_(const value& in, result& out) const override;

 private:
  int digits_;
  double scale_;
};

/// Parses a numeral ("12", "-3.5", "1e-3", ".5"); false for anything else. Exposed for tests.
bool parse_numeral(std::string_view text, bool& is_integer, std::int64_t& integer, double& real);

}  // namespace sqlmorph::normalizers
