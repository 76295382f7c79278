// The direct JSON writer of results.jsonl must print exactly what nlohmann's dump() prints.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "output/json_writer.hpp"
#include "output/record_json.hpp"

using namespace sqlmorph;

namespace {

std::string written(double d) {
  std::string out;
  core::json_writer(out).real(d);
  return out;
}

std::string nlohmann_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("json_writer prints doubles as nlohmann does") {
  const double cases[] = {0.0,
                          -0.0,
                          1.0,
                          -1.0,
                          0.5,
                          1.0 / 3.0,
                          2.0 / 3.0,
                          0.1,
                          0.25,
                          123.456,
                          1e15,
                          1e16,
                          9.99e14,
                          123456789012345.0,
                          1234567890123456.0,
                          1e-4,
                          1e-5,
                          0.00012,
                          0.000012,
                          1.5e20,
                          1e100,
                          5e-324,
                          std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::min(),
                          0.017,
                          1234.5,
                          100.0,
                          3.14159,
                          1e21,
                          12345678.9};
  for (const double d : cases) {
    CAPTURE(d);
    CHECK(written(d) == nlohmann_text(d));
  }
  CHECK(written(std::nan("")) == "null");
  CHECK(written(std::numeric_limits<double>::infinity()) == "null");

  // Random doubles: always read back exactly, and printed as nlohmann prints them — except where
  // nlohmann's Grisu2 gives one digit more than needed, or another last digit of the same length
  // (about 1 double in 1,000): there the writer prints the shortest, closest text (std::to_chars),
  // which is never longer and reads back to the same double.
  std::mt19937_64 rng(20261122);
  int different = 0;
  const int trials = 200000;
  for (int i = 0; i < trials; ++i) {
    double d = 0;
    if (i % 2 == 0) {
      const std::uint64_t bits = rng();
      std::memcpy(&d, &bits, sizeof d);
      if (!std::isfinite(d)) continue;
    } else {
      d = static_cast<double>(rng() % 1000000) /
          static_cast<double>(1 + rng() % 1000);  // metric-like fractions
    }
    const std::string w = written(d);
    CAPTURE(d);
    REQUIRE(nlohmann::json::parse(w).get<double>() == d);
    const std::string n = nlohmann_text(d);
    if (w != n) {
      ++different;
      CHECK(w.size() <= n.size());
      CHECK(nlohmann::json::parse(n).get<double>() == d);
    }
  }
  CHECK(different < trials / 100);
}

TEST_CASE("json_writer escapes strings as nlohmann does, invalid UTF-8 replaced") {
  const std::string cases[] = {"",
                               "plain text",
                               "quote \" and backslash \\",
                               "tab\tnew\nline\r",
                               std::string("nul\0x", 5),
                               "\x01\x1f\x7f",
                               "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                               "bad \xff\xfe bytes",
                               "truncated \xe2\x82",
                               "ends with \xc3"};
  for (const std::string& s : cases) {
    std::string out;
    core::append_json_string(out, s);
    CAPTURE(s);
    CHECK(out == nlohmann_text(s));
  }
}

TEST_CASE("a record written directly equals the same record built as a document") {
  core::record r;
  r.id = "sys:12";
  r.db_id = "concert_singer";
  r.system = "sys";
  r.technique = "exact_column_and_partial_cell";
  r.penalize_extra_pred_cols = true;
  r.status = core::example_status::pred_error;
  r.scores.ex = 0.0;
  r.scores.exp = 2.0 / 3.0;
  r.scores.exr = 0.5;
  r.scores.f1 = 4.0 / 7.0;
  r.error = "near \"FROM\": syntax error \xff";
  r.gold_ms = 0.0123456;
  r.scores.extra.push_back({"order_matters", true});
  r.scores.extra.push_back({"note", std::string("x")});
  r.scores.extra.push_back({"n", std::int64_t{3}});
  r.scores.extra.push_back({"w", 0.25});
  r.scores.extra.push_back({"z", nullptr});
  std::string line;
  core::append_record_json(line, r, true);
  CHECK(
      line ==
      "{\"id\":\"sys:12\",\"db_id\":\"concert_singer\",\"system\":\"sys\",\"difficulty\":null,\"technique\":"
      "\"exact_column_and_partial_cell\",\"penalize_extra_pred_cols\":true,\"status\":\"pred_error\",\"EX\":"
      "0,"
      "\"EXP\":0.6666666666666666,\"EXR\":0.5,\"F1\":0.5714285714285714,\"error\":\"near \\\"FROM\\\": "
      "syntax error "
      "\xef\xbf\xbd\",\"gold_ms\":0.012,\"pred_ms\":null,\"technique_ms\":null,\"order_matters\":true,"
      "\"note\":\"x\",\"n\":3,\"w\":"
      "0.25,"
      "\"z\":null}");
  CHECK(core::dump_json(core::record_to_json(r, true)) == line);
  core::record back;
  REQUIRE(core::record_from_json(nlohmann::json::parse(line), back));
  CHECK(back.id == r.id);
  CHECK(*back.scores.exp == *r.scores.exp);
}

TEST_CASE("extra fields with dotted names are written nested and read back flat") {
  core::record r;
  r.id = "s:1";
  r.technique = "spider_exact_match";
  r.scores.extra.push_back({"EM", std::int64_t{1}});
  r.scores.extra.push_back({"partial.select.acc", std::int64_t{1}});
  r.scores.extra.push_back({"partial.select.label_total", std::int64_t{2}});
  r.scores.extra.push_back({"partial.group(no Having).f1", std::int64_t{0}});
  // A field named like a group's head keeps the group flat (no duplicate key).
  r.scores.extra.push_back({"a.b", std::int64_t{1}});
  r.scores.extra.push_back({"a", true});
  std::string line;
  core::append_record_json(line, r, false);
  const auto j = nlohmann::json::parse(line);
  CHECK(j["partial"]["select"]["acc"] == 1);
  CHECK(j["partial"]["select"]["label_total"] == 2);
  CHECK(j["partial"]["group(no Having)"]["f1"] == 0);
  CHECK(j["partial"].size() == 2);
  CHECK(j["a.b"] == 1);
  CHECK(j["a"] == true);
  CHECK(line.find("\"partial\":{\"select\":{\"acc\":1,\"label_total\":2},\"group(no Having)\":{\"f1\":0}}") !=
        std::string::npos);
  nlohmann::json with_id = j;
  with_id["id"] = "s:1";
  core::record back;
  REQUIRE(core::record_from_json(with_id, back));
  std::map<std::string, sqlmorph::field_value> fields(back.scores.extra.begin(), back.scores.extra.end());
  CHECK(fields.size() == 6);
  CHECK(std::get<std::int64_t>(fields.at("partial.select.acc")) == 1);
  CHECK(std::get<std::int64_t>(fields.at("partial.select.label_total")) == 2);
  CHECK(std::get<std::int64_t>(fields.at("partial.group(no Having).f1")) == 0);
  CHECK(std::get<std::int64_t>(fields.at("a.b")) == 1);
}

TEST_CASE("json_writer escapes random text of quotes, controls, UTF-8 and invalid bytes as nlohmann does") {
  // Pieces that stress each path: printable ASCII, the escaped characters, DEL, valid sequences of
  // two to four bytes, and invalid ones (stray continuation, overlong, surrogate, above U+10FFFF,
  // cut off).
  const std::string pieces[] = {"a",
                                "Z9 ",
                                "\"",
                                "\\",
                                "\b",
                                "\f",
                                "\n",
                                "\r",
                                "\t",
                                std::string(1, '\0'),
                                "\x01",
                                "\x1f",
                                "\x7f",
                                "\xc3\xa9",
                                "\xe2\x86\x92",
                                "\xf0\x9f\x98\x80",
                                "\x80",
                                "\xc0\x80",
                                "\xed\xa0\x80",
                                "\xf4\x90\x80\x80",
                                "\xe2\x82",
                                "\xff"};
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  std::size_t checked = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string s;
    const std::size_t length = next() % 12;
    // Most texts draw only valid pieces (the path written here), the others any piece.
    const std::size_t choices = trial % 4 == 0 ? std::size(pieces) : 16;
    for (std::size_t k = 0; k < length; ++k) s += pieces[next() % choices];
    std::string out = "x";  // appended to what is there
    core::append_json_string(out, s);
    if (out != "x" + nlohmann_text(s)) {
      FAIL_CHECK("text " << nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)
                         << ": " << out);
      break;
    }
    ++checked;
  }
  CHECK(checked == 20000);
}
