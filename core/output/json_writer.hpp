#pragma once
// Writing compact JSON straight into a string, without building a document first: the hot path of
// results.jsonl (one line per example × technique, millions on a leaderboard run). The text is
// that of nlohmann's compact dump() with invalid UTF-8 replaced by U+FFFD (doubles aside: where
// nlohmann's Grisu2 prints a longer or farther last digit, this prints the shortest, closest one),
// so every JSON file of a run looks alike whichever way it was written.

#include <cstdint>
#include <string>
#include <string_view>

namespace sqlmorph::core {

class json_writer {
 public:
  explicit json_writer(std::string& out) : out_(out) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  /// A member's key; the member's value follows.
  void key(std::string_view k);

  void null() { separate(), out_ += "null"; }
  void boolean(bool b) { separate(), out_ += b ? "true" : "false"; }
  void integer(std::int64_t i);
  /// As nlohmann prints a double: shortest round-trip digits, "1.0" not "1", exponents outside
  /// 1e-5..1e15 ("1e-05", "1.5e+20"), and null for NaN and infinities.
  void real(double d);
  void string(std::string_view s);
  /// A value already written as JSON text (inserted as it is).
  void raw(std::string_view json) { separate(), out_ += json; }

 private:
  void separate();

  std::string& out_;
  bool first_in_container_ = true;
  bool after_key_ = false;
};

/// `s` as a JSON string literal (quotes included), appended to `out`.
void append_json_string(std::string& out, std::string_view s);

}  // namespace sqlmorph::core
