#pragma once
/// \file normalizer.hpp
/// The Normalizer interface: rewrites the values of a result before matching.

#include <optional>

#include "sqlmorph/result.hpp"

namespace sqlmorph {

/// Rewrites a result before it is matched (numeric text to numbers, case folding, trimming,
/// rounding, NULL policy, ...). Returns a new result; the input is unchanged. Normalizers run in
/// the order a technique lists them. Stateless after construction; thread-safe.
class normalizer {
 public:
  static constexpr const char* kind_name = "normalizer";
  using interface_type = normalizer;

  virtual ~normalizer() = default;

  /// The normalized result. Throws `std::logic_error` if the implementation changes the number of
  /// columns without changing the names accordingly (a bug in the normalizer).
  result normalize(const result& in) const;

  /// The normalized result, or nothing when normalizing leaves every value exactly as it is — the
  /// caller then goes on with `in` itself, and no copy of a large result is made for nothing.
  std::optional<result> normalize_if_changed(const result& in) const;

 protected:
  virtual result do_normalize_(const result& in) const = 0;
  /// Defaults to `do_normalize_` (always a new result); override when "unchanged" is cheap to tell.
  virtual std::optional<result> do_normalize_if_changed_(const result& in) const { return do_normalize_(in); }
};

/// Convenience base for normalizers that map each value independently: implement
/// `normalize_value_`, which appends exactly one value to `out` for each input value. A result is
/// copied only from its first value that actually changes (same kind and same payload = unchanged).
class value_normalizer : public normalizer {
 protected:
  virtual void normalize_value_(const value& in, result& out) const = 0;

 private:
  result do_normalize_(const result& in) const final;
  std::optional<result> do_normalize_if_changed_(const result& in) const final;
};

}  // namespace sqlmorph
