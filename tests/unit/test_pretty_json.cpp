// pretty_json (core/output/pretty_json.hpp): the text of nlohmann's dump(indent), byte for byte,
// whatever the shape of the document and the number of threads.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "output/pretty_json.hpp"
#include "output/record_json.hpp"

using namespace sqlmorph;
using json = nlohmann::ordered_json;

namespace {

// A long array (formatted in parallel) of objects holding the awkward cases: empty containers,
// nested arrays long and short, strings with escapes and bytes that are not UTF-8, numbers.
json awkward_document() {
  json doc;
  doc["empty_object"] = json::object();
  doc["empty_array"] = json::array();
  doc["scalar"] = 3.25;
  doc["text"] = "line one\nline two\t\"quoted\" \xff\xfe end";
  doc["key with\nnewline and \xc3"] = nullptr;
  json rows = json::array();
  for (int i = 0; i < 150; ++i) {
    json row;
    row["i"] = i;
    row["name"] = "row " + std::to_string(i) + (i % 7 == 0 ? "\n\xe2\x82" : "");
    row["values"] = json::array();
    for (int k = 0; k < (i % 3 == 0 ? 100 : i % 4); ++k) row["values"].push_back(k * 0.5);
    row["nested"] = {{"a", json::array({json::object(), json::array(), i % 2 == 0})}, {"b", json::object()}};
    rows.push_back(row);
  }
  doc["rows"] = rows;
  doc["outer"] = {{"inner", rows}, {"short", json::array({1, 2, 3})}};
  json wide = json::array();
  for (int i = 0; i < 80; ++i) wide.push_back(i % 2 ? json(i) : json::array());
  doc["wide"] = wide;
  return doc;
}

}  // namespace

TEST_CASE("pretty_json prints what dump prints, on any number of threads") {
  const json doc = awkward_document();
  for (const int indent : {0, 2, 4}) {
    const std::string expected = core::dump_json(doc, indent);
    for (const unsigned threads : {0u, 1u, 2u, 3u, 8u}) {
      CAPTURE(indent);
      CAPTURE(threads);
      CHECK(core::pretty_json(doc, indent, threads) == expected);
    }
  }
}

TEST_CASE("pretty_json of a document that is not an object") {
  for (const json& doc : {json(nullptr), json(7), json("x\ny"), json::array(), json::object(),
                          json::array({json::array({1, 2}), json::object({{"k", "v"}})})}) {
    CHECK(core::pretty_json(doc, 2, 2) == core::dump_json(doc, 2));
  }
  json many = json::array();
  for (int i = 0; i < 1000; ++i) many.push_back({{"n", i}, {"list", json::array({i, i + 1})}});
  CHECK(core::pretty_json(many, 2, 2) == core::dump_json(many, 2));
}
