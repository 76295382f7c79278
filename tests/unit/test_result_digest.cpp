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

// A result of columns `names` (of declared `types`) whose cells `fill` appends.
result made(std::vector<std::string> names, std::vector<std::string> types,
            const std::function<void(result&)>& fill) {
  result r;
  r.set_columns(std::move(names), std::move(types));
  fill(r);
  return r;
}

// Rows (1, 'x'), (2, NULL).
void sample_rows(result& r) {
  r.append_integer(1);
  r.append_text("x");
  r.append_integer(2);
  r.append_null();
}

// Two columns (a, b) of declared types (INT, TEXT), the sample rows, then `more`.
result sample(const std::function<void(result&)>& more = {}) {
  return made({"a", "b"}, {"INT", "TEXT"}, [&](result& r) {
    sample_rows(r);
    if (more) more(r);
  });
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
  changed.emplace_back("a column name", made({"a", "c"}, {"INT", "TEXT"}, sample_rows));
  changed.emplace_back("a declared type", made({"a", "b"}, {"INT", "VARCHAR"}, sample_rows));
  changed.emplace_back("no declared types", made({"a", "b"}, {}, sample_rows));
  {
    result r = sample();
    r.set_truncated(true);
    changed.emplace_back("truncation", std::move(r));
  }
  // Each replaces one cell of the sample rows.
  const auto one_cell_other = [](std::size_t at, const std::function<void(result&)>& append) {
    return made({"a", "b"}, {"INT", "TEXT"}, [&](result& r) {
      const result plain = sample();
      for (std::size_t i = 0; i < plain.cells().size(); ++i) {
        if (i == at)
          append(r);
        else
          r.append(plain.cells()[i]);
      }
    });
  };
  changed.emplace_back("1 as a real", one_cell_other(0, [](result& r) { r.append_real(1.0); }));
  changed.emplace_back("a blob for a text", one_cell_other(1, [](result& r) { r.append_blob("x"); }));
  changed.emplace_back("an empty text for a null", one_cell_other(3, [](result& r) { r.append_text(""); }));
  changed.emplace_back("one more row", sample([](result& r) {
                         r.append_integer(3);
                         r.append_null();
                       }));
  changed.emplace_back("the rows' order", made({"a", "b"}, {"INT", "TEXT"}, [](result& r) {
                         r.append_integer(2);
                         r.append_null();
                         r.append_integer(1);
                         r.append_text("x");
                       }));
  for (const auto& change : changed) {
    CAPTURE(change.first);
    CHECK(digest_of(change.second) != base);
  }
  // Text boundaries: ("ab", "c") and ("a", "bc").
  const auto pair_of = [](const char* p, const char* q) {
    return made({"p", "q"}, {}, [&](result& r) {
      r.append_text(p);
      r.append_text(q);
    });
  };
  CHECK(digest_of(pair_of("ab", "c")) != digest_of(pair_of("a", "bc")));
  // The bits of a real: 0.0 and -0.0 compare equal but may print differently.
  const auto real = [](double d) { return made({"z"}, {}, [&](result& r) { r.append_real(d); }); };
  CHECK(digest_of(real(0.0)) != digest_of(real(-0.0)));
}
