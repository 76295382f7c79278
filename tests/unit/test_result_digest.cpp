// A result's digest (core/eval/result_digest.hpp) decides whether two predictions may share their
// scores, so everything a technique could read must change it: column names and types, truncation,
// the kind of a cell, its bits, and where the bytes of one text end and the next begin. Equal
// contents built separately (other arenas, other addresses) give equal digests.

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "eval/result_digest.hpp"

using sqlmorph::result;
using sqlmorph::core::digest_of;

namespace {

// Two columns (a, b) of declared types (INT, TEXT), rows (1, 'x'), (2, NULL), then `more`.
result sample(const std::function<void(result&)>& more = {}) {
  result r;
  r.set_columns({"a", "b"}, {"INT", "TEXT"});
  r.append_integer(1);
  r.append_text("x");
  r.append_integer(2);
  r.append_null();
  if (more) more(r);
  return r;
}

}  // namespace

TEST_CASE("equal results have equal digests, whatever their storage") {
  const result a = sample();
  const result b = sample();
  CHECK(digest_of(a) == digest_of(b));
  CHECK(digest_of(a.clone()) == digest_of(a));
  result big;
  result big_too;
  big.set_columns({"v"});
  big_too.set_columns({"v"});
  for (int i = 0; i < 50000; ++i) {  // more cells than the hash's buffer holds
    big.append_text(std::string(static_cast<std::size_t>(i % 7), 'q') + std::to_string(i));
    big_too.append_text(std::string(static_cast<std::size_t>(i % 7), 'q') + std::to_string(i));
  }
  CHECK(digest_of(big) == digest_of(big_too));
  big_too.keep_rows(49999);
  CHECK(digest_of(big) != digest_of(big_too));
}

TEST_CASE("anything a technique could read changes the digest") {
  const auto base = digest_of(sample());
  std::vector<std::pair<std::string, result>> changed;
  {
    result r;
    r.set_columns({"a", "c"}, {"INT", "TEXT"});
    r.append_integer(1), r.append_text("x"), r.append_integer(2), r.append_null();
    changed.emplace_back("a column name", std::move(r));
  }
  {
    result r;
    r.set_columns({"a", "b"}, {"INT", "VARCHAR"});
    r.append_integer(1), r.append_text("x"), r.append_integer(2), r.append_null();
    changed.emplace_back("a declared type", std::move(r));
  }
  {
    result r;
    r.set_columns({"a", "b"});
    r.append_integer(1), r.append_text("x"), r.append_integer(2), r.append_null();
    changed.emplace_back("no declared types", std::move(r));
  }
  {
    result r = sample();
    r.set_truncated(true);
    changed.emplace_back("truncation", std::move(r));
  }
  {
    result r;
    r.set_columns({"a", "b"}, {"INT", "TEXT"});
    r.append_real(1.0), r.append_text("x"), r.append_integer(2), r.append_null();
    changed.emplace_back("1 as a real", std::move(r));
  }
  {
    result r;
    r.set_columns({"a", "b"}, {"INT", "TEXT"});
    r.append_integer(1), r.append_blob("x"), r.append_integer(2), r.append_null();
    changed.emplace_back("a blob for a text", std::move(r));
  }
  {
    result r;
    r.set_columns({"a", "b"}, {"INT", "TEXT"});
    r.append_integer(1), r.append_text("x"), r.append_integer(2), r.append_text("");
    changed.emplace_back("an empty text for a null", std::move(r));
  }
  changed.emplace_back("one more row", sample([](result& r) { r.append_integer(3), r.append_null(); }));
  {
    result r;
    r.set_columns({"a", "b"}, {"INT", "TEXT"});
    r.append_integer(2), r.append_null(), r.append_integer(1), r.append_text("x");
    changed.emplace_back("the rows' order", std::move(r));
  }
  for (const auto& [what, r] : changed) {
    CAPTURE(what);
    CHECK(digest_of(r) != base);
  }
  // Text boundaries: ("ab", "c") and ("a", "bc").
  result ab_c;
  result a_bc;
  ab_c.set_columns({"p", "q"});
  a_bc.set_columns({"p", "q"});
  ab_c.append_text("ab"), ab_c.append_text("c");
  a_bc.append_text("a"), a_bc.append_text("bc");
  CHECK(digest_of(ab_c) != digest_of(a_bc));
  // The bits of a real: 0.0 and -0.0 compare equal but may print differently.
  result zero;
  result minus_zero;
  zero.set_columns({"z"});
  minus_zero.set_columns({"z"});
  zero.append_real(0.0);
  minus_zero.append_real(-0.0);
  CHECK(digest_of(zero) != digest_of(minus_zero));
}
