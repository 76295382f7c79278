#pragma once
// An ODBC connection string (`DSN=shop;Database=/data/shop.sqlite`, `Driver={PostgreSQL Unicode};...`)
// read as attributes, so the backend can look at the driver and database and force a few
// attributes, while everything it does not touch is passed on exactly as written.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph::odbc {

class connection_string {
 public:
  /// Splits `text` at the `;` that are outside `{...}` values (`}}` inside braces is a `}`).
  /// Never fails: text without `=` is kept as written.
  static connection_string parse(std::string_view text);

  /// The value of `key` (compared case-insensitively, the last one wins), braces removed.
  std::optional<std::string> get(std::string_view key) const;

  /// Sets `key` to `value`, replacing every earlier occurrence (a value holding `;`, `{`, `}` or
  /// surrounding blanks is written in braces).
  void set(std::string_view key, std::string_view value);

  /// The connection string again: untouched attributes exactly as they were given.
  std::string str() const;

 private:
  struct attribute {
    std::string key;    // trimmed; empty for a segment without '='
    std::string raw;    // the segment as written ("Driver={x}")
    std::string value;  // braces removed
  };
  std::vector<attribute> attributes_;
};

}  // namespace sqlmorph::odbc
