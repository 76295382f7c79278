#include "connection_string.hpp"

#include <algorithm>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::odbc {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

connection_string connection_string::parse(std::string_view text) {
  connection_string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    const std::size_t eq = text.find_first_of("=;", i);
    if (eq == std::string_view::npos || text[eq] == ';') {
      // A segment without a value (or an empty one between two ';'): kept, never interpreted.
      const std::size_t end = eq == std::string_view::npos ? text.size() : eq;
      if (!trim(text.substr(start, end - start)).empty()) {
        out.attributes_.push_back({"", std::string(text.substr(start, end - start)), ""});
      }
      i = end + 1;
      continue;
    }
    attribute a;
    a.key = std::string(trim(text.substr(start, eq - start)));
    i = eq + 1;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i < text.size() && text[i] == '{') {
      // A braced value may hold ';'; "}}" stands for '}'.
      ++i;
      while (i < text.size()) {
        if (text[i] == '}') {
          if (i + 1 < text.size() && text[i + 1] == '}') {
            a.value += '}';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        a.value += text[i++];
      }
      while (i < text.size() && text[i] != ';') ++i;  // blanks after the closing brace
    } else {
      const std::size_t end = std::min(text.find(';', i), text.size());
      a.value = std::string(trim(text.substr(i, end - i)));
      i = end;
    }
    a.raw = std::string(text.substr(start, i - start));
    out.attributes_.push_back(std::move(a));
    ++i;  // the ';'
  }
  return out;
}

std::optional<std::string> connection_string::get(std::string_view key) const {
  std::optional<std::string> out;
  for (const attribute& a : attributes_) {
    if (!a.key.empty() && iequals_ascii(a.key, key)) out = a.value;
  }
  return out;
}

void connection_string::set(std::string_view key, std::string_view value) {
  std::erase_if(attributes_, [&](const attribute& a) { return !a.key.empty() && iequals_ascii(a.key, key); });
  const bool braces = value.find_first_of(";{}") != std::string_view::npos || trim(value) != value;
  std::string raw = std::string(key) + "=";
  if (braces) {
    raw += '{';
    for (const char c : value) {
      raw += c;
      if (c == '}') raw += '}';
    }
    raw += '}';
  } else {
    raw += value;
  }
  attributes_.push_back({std::string(key), std::move(raw), std::string(value)});
}

std::string connection_string::str() const {
  std::string out;
  for (const attribute& a : attributes_) {
    if (!out.empty()) out += ';';
    out += a.raw;
  }
  return out;
}

}  // namespace sqlmorph::odbc
