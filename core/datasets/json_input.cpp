#include "datasets/json_input.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include <spdlog/spdlog.h>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {

using json = nlohmann::json;

// Builds the document as nlohmann's own DOM parser does, and also counts keys given twice,
// bounds the nesting and keeps the position and message of the first error.
class checked_dom_builder final : public nlohmann::json_sax<json> {
 public:
  json root;
  std::map<std::string, std::size_t> duplicates;  // key → times it was given again
  bool failed = false;
  std::size_t error_position = 0;
  std::string error;

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(json(v)); }
  bool string(string_t& v) override { return add(json(std::move(v))); }
  bool binary(binary_t& v) override { return add(json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    json& object = *open_.back();
    if (object.contains(k)) ++duplicates[k];
    slot_ = &object[k];
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    fail(position, e.what());
    return false;
  }

 private:
  json* place(json value) {
    if (open_.empty()) {
      root = std::move(value);
      return &root;
    }
    json& container = *open_.back();
    if (container.is_array()) {
      container.push_back(std::move(value));
      return &container.back();
    }
    *slot_ = std::move(value);
    return slot_;
  }
  bool add(json value) {
    place(std::move(value));
    return true;
  }
  bool open(json container) {
    if (open_.size() >= max_json_depth) {
      fail(0, "nested deeper than " + std::to_string(max_json_depth) + " levels");
      return false;
    }
    open_.push_back(place(std::move(container)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
  void fail(std::size_t position, std::string message) {
    if (failed) return;
    failed = true;
    error_position = position;
    error = std::move(message);
  }

  std::vector<json*> open_;  // the containers not closed yet, innermost last
  json* slot_ = nullptr;     // where the value after a key goes
};

// "[json.exception.parse_error.101] parse error at ..." → "parse error at ...".
std::string without_exception_id(std::string message) {
  if (message.rfind("[json.exception.", 0) == 0) {
    const auto close = message.find("] ");
    if (close != std::string::npos) message.erase(0, close + 2);
  }
  return message;
}

}  // namespace

nlohmann::json parse_input_json(std::string_view text, const std::string& file, std::size_t first_line) {
  checked_dom_builder builder;
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const json::exception& e) {  // not expected from the parser; a message all the same
    builder.parse_error(text.size(), {}, e);
  }
  if (!ok || builder.failed) {
    const std::size_t upto = std::min(builder.error_position, text.size());
    const auto line =
        first_line + static_cast<std::size_t>(std::count(text.begin(), text.begin() + upto, '\n'));
    throw usage_error(file + ":" + std::to_string(line) + ": invalid JSON: " +
                      without_exception_id(builder.error.empty() ? "cannot be parsed" : builder.error));
  }
  if (!builder.duplicates.empty()) {
    std::string keys;
    std::size_t listed = 0;
    for (const auto& [k, again] : builder.duplicates) {
      if (listed++ == 10) {
        keys += ", ...";
        break;
      }
      keys += (keys.empty() ? "\"" : ", \"") + k + "\"" +
              (again > 1 ? " (" + std::to_string(again + 1) + " times)" : "");
    }
    spdlog::warn("{}{}: {} key{} given twice in one object; the last value is used: {}", file,
                 text.find('\n') == std::string_view::npos ? ":" + std::to_string(first_line) : "",
                 builder.duplicates.size(), builder.duplicates.size() == 1 ? "" : "s", keys);
  }
  return std::move(builder.root);
}

bool looks_like_json(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n\f\v");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

}  // namespace sqlmorph::core
