#pragma once
/// \file value.hpp
/// One cell of a SQL result, with the "reference equality" of TECHNIQUES.md §1 and Python's `str()`.

#include <cstdint>
#include <string>
#include <string_view>

namespace sqlmorph {

/// The five kinds of values a result cell can hold.
enum class value_kind : std::uint8_t { null, integer, real, text, blob };

/// One result cell: a 16-byte, trivially copyable handle.
///
/// Numbers are stored inline. Text and blob bytes are *not owned*: they live in the arena of the
/// `result` that holds the value (or in storage the caller keeps alive for as long as the value is
/// used). Text is a byte string; it may be invalid UTF-8, which is data, never an error.
class value {
 public:
  constexpr value() noexcept : i_(0), size_(0), kind_(value_kind::null) {}

  static constexpr value null() noexcept { return value(); }
  static constexpr value integer(std::int64_t v) noexcept {
    value out;
    out.i_ = v;
    out.kind_ = value_kind::integer;
    return out;
  }
  static constexpr value real(double v) noexcept {
    value out;
    out.d_ = v;
    out.kind_ = value_kind::real;
    return out;
  }
  /// A text value viewing `bytes` (not copied).
  static value text(std::string_view bytes) noexcept { return bytes_value(value_kind::text, bytes); }
  /// A blob value viewing `bytes` (not copied).
  static value blob(std::string_view bytes) noexcept { return bytes_value(value_kind::blob, bytes); }

  constexpr value_kind kind() const noexcept { return kind_; }
  constexpr bool is_null() const noexcept { return kind_ == value_kind::null; }
  constexpr bool is_number() const noexcept {
    return kind_ == value_kind::integer || kind_ == value_kind::real;
  }
  constexpr bool has_bytes() const noexcept { return kind_ == value_kind::text || kind_ == value_kind::blob; }

  /// Precondition: kind() == integer.
  constexpr std::int64_t as_integer() const noexcept { return i_; }
  /// Precondition: kind() == real.
  constexpr double as_real() const noexcept { return d_; }
  /// The number as a double (integers converted, possibly rounding). Precondition: is_number().
  constexpr double as_double() const noexcept {
    return kind_ == value_kind::integer ? static_cast<double>(i_) : d_;
  }
  /// Precondition: has_bytes(). For other kinds returns an empty view.
  std::string_view bytes() const noexcept {
    return has_bytes() ? std::string_view(p_, size_) : std::string_view();
  }

 private:
  static value bytes_value(value_kind kind, std::string_view bytes) noexcept {
    value out;
    out.p_ = bytes.data();
    out.size_ = static_cast<std::uint32_t>(bytes.size());
    out.kind_ = kind;
    return out;
  }

  union {
    std::int64_t i_;
    double d_;
    const char* p_;
  };
  std::uint32_t size_;
  value_kind kind_;
};

static_assert(sizeof(value) == 16, "value must stay a 16-byte handle (PERF.md target 6)");

/// Reference equality (TECHNIQUES.md §1): what Python's `==` gives on values read from SQLite.
/// NULL equals only NULL; integer and real compare numerically and exactly; text equals text and
/// blob equals blob byte for byte; text never equals a number or a blob.
bool reference_equal(const value& a, const value& b) noexcept;

/// A hash consistent with reference_equal: equal values hash equally (an integral real hashes like
/// the integer, -0.0 like 0).
std::uint64_t reference_hash(const value& v) noexcept;

/// Exact comparison of an integer with a real: true iff the real is integral and equal to it.
bool integer_equals_real(std::int64_t i, double d) noexcept;

/// If `d` is integral and representable as int64, stores it in `out` and returns true.
bool real_as_exact_integer(double d, std::int64_t& out) noexcept;

/// Appends Python's `str()` of the value: `None`, decimal integers, `repr(float)`, the text bytes
/// themselves, or `repr(bytes)` for a blob.
void append_python_str(std::string& out, const value& v);
std::string python_str(const value& v);

/// Python's `repr(float)`: the shortest round-tripping digits, `1e+16` / `1.5e-05` style outside
/// [1e-4, 1e16), `.0` on integral values, `inf`, `-inf`, `nan`.
void append_python_float_repr(std::string& out, double d);
std::string python_float_repr(double d);

/// Python's `repr(bytes)`: `b'..'` with `\xNN`, `\t`, `\n`, `\r`, `\\` escapes.
void append_python_bytes_repr(std::string& out, std::string_view bytes);

/// Python's `str(type(v))` for a value read from SQLite: `<class 'int'>`, `<class 'float'>`,
/// `<class 'str'>`, `<class 'NoneType'>`, `<class 'bytes'>`.
std::string_view python_type_name(value_kind kind) noexcept;

/// A short lower-case name of the kind: "null", "integer", "real", "text", "blob".
std::string_view kind_name(value_kind kind) noexcept;

}  // namespace sqlmorph
