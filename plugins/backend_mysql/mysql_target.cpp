#include "mysql_target.hpp"

#include <charconv>
#include <stdexcept>

namespace sqlmorph::mysql {
namespace {

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';';
}

int parse_int(const std::string& key, const std::string& value, int low, int high) {
  int v = 0;
  const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || p != value.data() + value.size() || value.empty() || v < low || v > high) {
    throw std::invalid_argument("connection string: " + key + " must be a number from " +
                                std::to_string(low) + " to " + std::to_string(high) + ", not '" + value +
                                "'");
  }
  return v;
}

}  // namespace

mysql_target parse_target(std::string_view text) {
  mysql_target t;
  bool has_database = false;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && is_separator(text[i])) ++i;
    if (i >= text.size()) break;
    const std::size_t eq = text.find('=', i);
    const std::size_t stop = text.find_first_of(" \t\n\r;", i);
    if (eq == std::string_view::npos || (stop != std::string_view::npos && stop < eq)) {
      throw std::invalid_argument(
          "connection string: '" +
          std::string(text.substr(i, stop == std::string_view::npos ? stop : stop - i)) +
          "' is not key=value");
    }
    const std::string key(text.substr(i, eq - i));
    i = eq + 1;
    std::string value;
    if (i < text.size() && text[i] == '\'') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        const char c = text[i++];
        if (c == '\\' && i < text.size()) {
          value += text[i++];
        } else if (c == '\'') {
          closed = true;
          break;
        } else {
          value += c;
        }
      }
      if (!closed)
        throw std::invalid_argument("connection string: the quoted value of " + key + " is not closed");
    } else {
      while (i < text.size() && !is_separator(text[i])) value += text[i++];
    }
    if (key == "host") {
      t.host = value;
    } else if (key == "port") {
      t.port = static_cast<unsigned>(parse_int(key, value, 1, 65535));
    } else if (key == "socket" || key == "unix_socket") {
      t.socket = value;
    } else if (key == "user") {
      t.user = value;
    } else if (key == "password") {
      t.password = value;
    } else if (key == "database" || key == "dbname") {
      t.database = value;
      has_database = true;
    } else if (key == "connect_timeout") {
      t.connect_timeout = parse_int(key, value, 0, 86400);
    } else {
      throw std::invalid_argument("connection string: unknown key '" + key +
                                  "' (known: host, port, socket, user, password, database, connect_timeout)");
    }
  }
  if (!has_database || t.database.empty()) {
    throw std::invalid_argument("connection string: no database (add database={db_id})");
  }
  return t;
}

}  // namespace sqlmorph::mysql
