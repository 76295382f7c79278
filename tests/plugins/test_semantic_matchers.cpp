// The semantic techniques' building blocks: the hash_trigram embedder against every worked example
// of shared/design/EMBEDDING.md (bit for bit), the optimal assignment against brute force, the
// column descriptions, and the three techniques on hand-built results (including the reference
// bugs we fix).

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include <sqlmorph/embedder.hpp>
#include <sqlmorph/unicode.hpp>

#include "column_descriptions.hpp"
#include "hash_trigram.hpp"
#include "optimal_assignment.hpp"
#include "row_similarity.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using test::make_result;

namespace {

struct worked_example {
  const char* text;
  std::vector<std::pair<std::size_t, double>> nonzero;
};

// shared/design/EMBEDDING.md, "Worked examples": every non-zero entry (all others are 0.0).
const worked_example worked_examples[] = {
    {"Alice",
     {{31, 0.4472135954999579},
      {64, 0.4472135954999579},
      {139, -0.4472135954999579},
      {143, 0.4472135954999579},
      {226, -0.4472135954999579}}},
    {"Column name: salary. Data type: float64. Sample values: 100000.0, 80000.0, 70000.0",
     {{7, -0.09128709291752768},   {12, 0.09128709291752768},   {14, -0.09128709291752768},
      {18, 0.09128709291752768},   {21, 0.09128709291752768},   {30, 0.09128709291752768},
      {43, -0.09128709291752768},  {47, 0.09128709291752768},   {48, 0.09128709291752768},
      {53, -0.18257418583505536},  {56, -0.09128709291752768},  {60, 0.09128709291752768},
      {62, 0.09128709291752768},   {71, -0.6390096504226938},   {75, 0.09128709291752768},
      {84, -0.09128709291752768},  {87, -0.09128709291752768},  {91, 0.18257418583505536},
      {94, -0.09128709291752768},  {106, -0.18257418583505536}, {108, -0.09128709291752768},
      {121, -0.09128709291752768}, {124, -0.18257418583505536}, {127, -0.09128709291752768},
      {128, -0.09128709291752768}, {129, 0.09128709291752768},  {131, -0.09128709291752768},
      {132, 0.09128709291752768},  {143, -0.09128709291752768}, {144, -0.09128709291752768},
      {145, -0.09128709291752768}, {151, -0.09128709291752768}, {160, -0.09128709291752768},
      {162, 0.09128709291752768},  {173, 0.18257418583505536},  {178, 0.09128709291752768},
      {180, 0.09128709291752768},  {184, -0.09128709291752768}, {185, 0.09128709291752768},
      {186, 0.09128709291752768},  {194, -0.09128709291752768}, {198, 0.09128709291752768},
      {199, 0.09128709291752768},  {205, 0.09128709291752768},  {210, -0.09128709291752768},
      {216, 0.09128709291752768},  {220, -0.09128709291752768}, {225, 0.09128709291752768},
      {229, 0.09128709291752768},  {230, -0.09128709291752768}, {234, 0.09128709291752768},
      {235, 0.09128709291752768},  {239, -0.09128709291752768}, {243, -0.09128709291752768},
      {249, 0.09128709291752768},  {250, 0.09128709291752768},  {251, -0.09128709291752768}}},
    {"Caf\xc3\xa9 \xc3\x9cn\xc3\xaf"
     "code \xe2\x80\x94 Stra\xc3\x9f"
     "e",
     {{8, -0.22941573387056174},
      {34, -0.22941573387056174},
      {48, 0.22941573387056174},
      {57, 0.22941573387056174},
      {63, 0.22941573387056174},
      {66, 0.22941573387056174},
      {79, 0.22941573387056174},
      {86, 0.22941573387056174},
      {93, -0.22941573387056174},
      {121, 0.22941573387056174},
      {164, -0.22941573387056174},
      {170, 0.22941573387056174},
      {177, 0.22941573387056174},
      {178, 0.22941573387056174},
      {246, -0.22941573387056174},
      {249, -0.4588314677411235}}},
};

double dot_left_to_right(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

scores evaluate(const std::string& technique, std::optional<bool> penalize, const result& g,
                const result& p) {
  core::match_memo memo;
  return test::technique(technique, penalize)->evaluate(match_input{g, p, "SELECT", "SELECT"}, memo);
}

}  // namespace

TEST_CASE("hash_trigram: FNV-1a check values and the trigram buckets of Alice") {
  CHECK(builtin::fnv1a64("") == 14695981039346656037ull);
  CHECK(builtin::fnv1a64("a") == 12638187200555641996ull);
  const struct {
    const char* trigram;
    std::uint64_t bucket;
    int sign;
  } alice[] = {{" al", 226, -1}, {"ali", 139, -1}, {"lic", 31, 1}, {"ice", 64, 1}, {"ce ", 143, 1}};
  for (const auto& t : alice) {
    CAPTURE(t.trigram);
    const std::uint64_t h = builtin::fnv1a64(t.trigram);
    CHECK(h % 256 == t.bucket);
    CHECK((((h >> 8) & 1) == 0 ? 1 : -1) == t.sign);
  }
}

TEST_CASE("hash_trigram: every worked example of EMBEDDING.md, bit for bit") {
  for (const worked_example& ex : worked_examples) {
    CAPTURE(ex.text);
    const std::vector<double> v = builtin::hash_trigram_vector(ex.text);
    REQUIRE(v.size() == 256);
    std::vector<double> want(256, 0.0);
    for (const auto& [i, x] : ex.nonzero) want[i] = x;
    for (std::size_t i = 0; i < 256; ++i) {
      CAPTURE(i);
      CHECK(v[i] == want[i]);  // exact: same operations, same IEEE results
    }
  }
}

namespace {

// EMBEDDING.md's steps spelled out: each window's three code points encoded into a string of its
// own, then hashed. hash_trigram_vector hashes the windows where they lie in the padded text.
std::vector<double> hash_trigram_by_the_steps(std::string_view text) {
  std::vector<std::uint32_t> units = decode_utf8(python_lower(text));
  units.insert(units.begin(), ' ');
  units.push_back(' ');
  std::array<std::int64_t, 256> counts{};
  for (std::size_t i = 0; i + 3 <= units.size(); ++i) {
    std::string window;
    for (std::size_t k = 0; k < 3; ++k) append_utf8(window, units[i + k]);
    const std::uint64_t h = builtin::fnv1a64(window);
    counts[h % 256] += ((h >> 8) & 1) == 0 ? 1 : -1;
  }
  std::int64_t sum = 0;
  for (const std::int64_t c : counts) sum += c * c;
  std::vector<double> out(256, 0.0);
  if (sum == 0) return out;
  for (std::size_t i = 0; i < 256; ++i)
    out[i] = static_cast<double>(counts[i]) / std::sqrt(static_cast<double>(sum));
  return out;
}

}  // namespace

TEST_CASE("hash_trigram: the same vectors as the steps of EMBEDDING.md, on ASCII, UTF-8 and invalid bytes") {
  std::mt19937 rng(2026);
  // Bytes drawn from ASCII letters, UTF-8 lead and continuation bytes, and the rest.
  const std::string pieces[] = {"a",
                                "Z",
                                " ",
                                "|",
                                "7",
                                "\xc3\xa9",
                                "\xc3",
                                "\xa9",
                                "\xe2\x80\x94",
                                "\xf0\x9f\x98\x80",
                                "\xed\xa0\x80",
                                "\xff",
                                "\xc4\xb0",
                                "\xce\xa3",
                                "N/A"};
  std::uniform_int_distribution<std::size_t> piece(0, std::size(pieces) - 1);
  std::uniform_int_distribution<int> length(0, 12);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text;
    const int n = length(rng);
    for (int k = 0; k < n; ++k) text += pieces[piece(rng)];
    CAPTURE(text);
    CHECK(builtin::hash_trigram_vector(text) == hash_trigram_by_the_steps(text));
  }
}

TEST_CASE("hash_trigram: the cosine examples of EMBEDDING.md") {
  using builtin::hash_trigram_vector;
  CHECK(dot_left_to_right(
            hash_trigram_vector("Column name: name. Data type: object. Sample values: Alice, Bob, Carol"),
            hash_trigram_vector(
                "Column name: employee_name. Data type: object. Sample values: Alice, Bob, Carol")) ==
        0.9030616159415428);
  CHECK(dot_left_to_right(hash_trigram_vector("Alice | 100000.0"), hash_trigram_vector("Alice | 100000")) ==
        0.9500000000000003);
}

TEST_CASE("hash_trigram: Python lower-casing, empty text, and the registered component") {
  // str.lower() maps U+0130 to "i" + U+0307: the same vector as the already lower-cased text.
  CHECK(builtin::hash_trigram_vector("\xc4\xb0stanbul") == builtin::hash_trigram_vector("i\xcc\x87stanbul"));
  CHECK(builtin::hash_trigram_vector("ABC") == builtin::hash_trigram_vector("abc"));
  // "" padded is two spaces: no window of 3, so the all-zero vector.
  const std::vector<double> empty = builtin::hash_trigram_vector("");
  CHECK(std::all_of(empty.begin(), empty.end(), [](double x) { return x == 0.0; }));

  const auto e = test::registry().create<embedder>(core::component_spec("hash_trigram"));
  CHECK(e->model_id() == "hash-trigram-v1");
  const std::vector<std::string> texts = {"Alice", "Bob", "Alice"};
  const embedding_outcome out = e->embed(texts);
  REQUIRE(out.ok);
  REQUIRE(out.vectors.size() == 3);
  CHECK(out.vectors[0] == builtin::hash_trigram_vector("Alice"));
  CHECK(out.vectors[0] == out.vectors[2]);
  // Without a configuration, `default` is hash_trigram.
  CHECK(test::registry().create<embedder>(core::component_spec("default"))->model_id() == "hash-trigram-v1");
}

TEST_CASE("optimal assignment: agrees with brute force on random small matrices") {
  std::mt19937 rng(20240607);
  std::uniform_int_distribution<int> size(1, 6);
  std::uniform_int_distribution<int> coarse(-3, 3);  // many ties
  std::uniform_real_distribution<double> fine(-1.0, 1.0);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t rows = static_cast<std::size_t>(size(rng));
    const std::size_t cols = static_cast<std::size_t>(size(rng));
    std::vector<double> m(rows * cols);
    for (double& x : m) x = trial % 2 ? fine(rng) : static_cast<double>(coarse(rng)) / 2;
    const std::vector<std::size_t> got = semantic::optimal_assignment(m, rows, cols);
    REQUIRE(got.size() == rows);
    std::vector<char> used(cols, 0);
    std::size_t assigned = 0;
    for (const std::size_t c : got) {
      if (c == semantic::unassigned) continue;
      REQUIRE(c < cols);
      CHECK(!used[c]);
      used[c] = 1;
      ++assigned;
    }
    CHECK(assigned == std::min(rows, cols));
    // Brute force: every injection of the smaller side into the larger.
    double best = -1e300;
    if (rows <= cols) {
      std::vector<std::size_t> perm(cols);
      std::iota(perm.begin(), perm.end(), 0);
      do {
        double t = 0;
        for (std::size_t r = 0; r < rows; ++r) t += m[r * cols + perm[r]];
        best = std::max(best, t);
      } while (std::next_permutation(perm.begin(), perm.end()));
    } else {
      std::vector<std::size_t> perm(rows);
      std::iota(perm.begin(), perm.end(), 0);
      do {
        double t = 0;
        for (std::size_t c = 0; c < cols; ++c) t += m[perm[c] * cols + c];
        best = std::max(best, t);
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    CAPTURE(trial);
    CHECK(semantic::assignment_total(m, cols, got) == doctest::Approx(best).epsilon(1e-12));
  }
}

TEST_CASE("optimal assignment: empty sides, NaN, and a case greedy gets wrong") {
  CHECK(semantic::optimal_assignment({}, 0, 3).empty());
  CHECK(semantic::optimal_assignment({}, 2, 0) == std::vector<std::size_t>(2, semantic::unassigned));
  // Greedy would take 0.9 (row 0 → col 0) and be left with 0.0; the optimum is 0.8 + 0.8.
  const std::vector<double> m = {0.9, 0.8, 0.8, 0.0};
  CHECK(semantic::optimal_assignment(m, 2, 2) == std::vector<std::size_t>{1, 0});
  const std::vector<double> with_nan = {std::nan(""), 0.5, 0.2, std::nan("")};
  CHECK(semantic::optimal_assignment(with_nan, 2, 2) == std::vector<std::size_t>{1, 0});
}

// What the assignment maximizes (optimal_assignment.hpp): NaN and -inf count as the lowest finite
// score minus one, +inf as a huge number.
double cleaned_total(const std::vector<double>& m,
                     const std::vector<std::pair<std::size_t, double>>& picked) {
  double lowest = std::numeric_limits<double>::max();
  for (const double x : m) {
    if (std::isfinite(x)) lowest = std::min(lowest, x);
  }
  if (lowest == std::numeric_limits<double>::max()) lowest = 0;
  double total = 0;
  for (const auto& [count, x] : picked) {
    const double c = std::isnan(x) || x == -std::numeric_limits<double>::infinity() ? lowest - 1
                     : x == std::numeric_limits<double>::infinity() ? std::numeric_limits<double>::max() / 4
                                                                    : x;
    total += static_cast<double>(count) * c;
  }
  return total;
}

TEST_CASE("grouped assignment: the optimum of the plain assignment of the expanded matrix") {
  std::mt19937 rng(20261126);
  std::uniform_int_distribution<int> coarse(-3, 3);  // many ties
  std::uniform_real_distribution<double> fine(-1.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 3000; ++trial) {
    CAPTURE(trial);
    // Small trials most of the time, some of up to 40 × 40 groups; both sides larger in turn.
    const int max_groups = trial % 10 == 0 ? 40 : 6;
    const int max_count = trial % 3 == 0 ? 1 : (trial % 3 == 1 ? 3 : 8);
    std::uniform_int_distribution<int> groups(1, max_groups);
    std::uniform_int_distribution<int> count(1, max_count);
    std::vector<std::size_t> row_count(static_cast<std::size_t>(groups(rng)));
    std::vector<std::size_t> col_count(static_cast<std::size_t>(groups(rng)));
    for (auto& c : row_count) c = static_cast<std::size_t>(count(rng));
    for (auto& c : col_count) c = static_cast<std::size_t>(count(rng));
    const std::size_t rg = row_count.size();
    const std::size_t cg = col_count.size();
    std::vector<double> m(rg * cg);
    const double nan_share = trial % 4 == 3 ? 0.2 : 0.0;
    for (double& x : m) {
      x = trial % 2 ? fine(rng) : static_cast<double>(coarse(rng)) / 2;
      if (unit(rng) < nan_share) x = std::nan("");
    }
    if (trial % 50 == 7) m[0] = -std::numeric_limits<double>::infinity();
    if (trial % 50 == 17) m[0] = std::numeric_limits<double>::infinity();
    // The expanded matrix: group r's rows and group c's columns repeated.
    std::vector<std::size_t> row_group;
    std::vector<std::size_t> col_group;
    for (std::size_t r = 0; r < rg; ++r) row_group.insert(row_group.end(), row_count[r], r);
    for (std::size_t c = 0; c < cg; ++c) col_group.insert(col_group.end(), col_count[c], c);
    const std::size_t rows = row_group.size();
    const std::size_t cols = col_group.size();
    std::vector<double> full(rows * cols);
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) full[i * cols + j] = m[row_group[i] * cg + col_group[j]];
    }
    const std::vector<std::size_t> plain = semantic::optimal_assignment(full, rows, cols);
    std::vector<std::pair<std::size_t, double>> plain_picked;
    for (std::size_t i = 0; i < rows; ++i) {
      if (plain[i] != semantic::unassigned) plain_picked.emplace_back(1, full[i * cols + plain[i]]);
    }

    const std::vector<semantic::group_flow> flows = semantic::grouped_assignment(m, row_count, col_count);
    std::vector<std::size_t> row_used(rg, 0);
    std::vector<std::size_t> col_used(cg, 0);
    std::size_t pairs = 0;
    std::vector<std::pair<std::size_t, double>> grouped_picked;
    for (const semantic::group_flow& f : flows) {
      REQUIRE(f.row < rg);
      REQUIRE(f.col < cg);
      CHECK(f.count > 0);
      row_used[f.row] += f.count;
      col_used[f.col] += f.count;
      pairs += f.count;
      grouped_picked.emplace_back(f.count, m[f.row * cg + f.col]);
    }
    CHECK(pairs == std::min(rows, cols));
    for (std::size_t r = 0; r < rg; ++r) CHECK(row_used[r] <= row_count[r]);
    for (std::size_t c = 0; c < cg; ++c) CHECK(col_used[c] <= col_count[c]);
    const double want = cleaned_total(m, plain_picked);
    const double got = cleaned_total(m, grouped_picked);
    // (An infinite score counts as max / 4: a few copies of it add up to infinity on both sides.)
    CHECK((got == want || std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(want))));
    if (nan_share == 0 && trial % 50 != 7 && trial % 50 != 17) {
      CHECK(std::abs(semantic::grouped_total(m, cg, flows) - semantic::assignment_total(full, cols, plain)) <=
            1e-9);
    }
  }
}

// The search over candidate pairs certified by LP duality (grouped_assignment.cpp): started from
// 1 to 3 candidates per group, it must add the pairs the duals ask for until its optimum is the
// optimum over every pair.
TEST_CASE("grouped assignment: the candidate search reaches the optimum over every pair") {
  std::mt19937 rng(20261127);
  std::uniform_int_distribution<int> coarse(-3, 3);  // many ties
  std::uniform_real_distribution<double> fine(-1.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    CAPTURE(trial);
    std::uniform_int_distribution<int> groups(1, trial % 10 == 0 ? 40 : 8);
    std::uniform_int_distribution<int> count(1, trial % 3 == 0 ? 1 : 4);
    std::vector<std::size_t> row_count(static_cast<std::size_t>(groups(rng)));
    std::vector<std::size_t> col_count(static_cast<std::size_t>(groups(rng)));
    for (auto& c : row_count) c = static_cast<std::size_t>(count(rng));
    for (auto& c : col_count) c = static_cast<std::size_t>(count(rng));
    std::vector<double> m(row_count.size() * col_count.size());
    for (double& x : m) x = trial % 2 ? fine(rng) : static_cast<double>(coarse(rng)) / 2;
    const auto every_pair = semantic::grouped_assignment(m, row_count, col_count);
    const double want = semantic::grouped_total(m, col_count.size(), every_pair);
    const std::size_t candidates = 1 + static_cast<std::size_t>(trial % 3);
    const auto flows = semantic::grouped_assignment(m, row_count, col_count, candidates);
    std::vector<std::size_t> row_used(row_count.size(), 0);
    std::vector<std::size_t> col_used(col_count.size(), 0);
    std::size_t pairs = 0;
    for (const semantic::group_flow& f : flows) {
      row_used[f.row] += f.count;
      col_used[f.col] += f.count;
      pairs += f.count;
    }
    std::size_t rows = 0;
    std::size_t cols = 0;
    for (const std::size_t c : row_count) rows += c;
    for (const std::size_t c : col_count) cols += c;
    CHECK(pairs == std::min(rows, cols));
    for (std::size_t r = 0; r < row_count.size(); ++r) CHECK(row_used[r] <= row_count[r]);
    for (std::size_t c = 0; c < col_count.size(); ++c) CHECK(col_used[c] <= col_count[c]);
    CHECK(std::abs(semantic::grouped_total(m, col_count.size(), flows) - want) <= 1e-9);
  }
}

// Large matrices take the candidate search by themselves: rows of similarities as the semantic row
// matcher makes them (float32 cosines, close to one another, with ties), against the plain
// assignment of the expanded matrix.
TEST_CASE("grouped assignment: large similarity matrices, against the plain assignment") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    CAPTURE(trial);
    const std::size_t rg = 260 + static_cast<std::size_t>(trial) * 40;
    const std::size_t cg = trial % 2 ? rg : rg + 90;
    std::vector<std::size_t> row_count(rg, 1);
    std::vector<std::size_t> col_count(cg, 1);
    if (trial >= 4) {
      for (std::size_t c = 0; c < cg; c += 7) col_count[c] = 3;
    }
    std::vector<float> a(rg * 8), b(cg * 8);
    std::uniform_real_distribution<float> spread(0.0f, 1.0f);
    for (float& x : a) x = std::round(spread(rng) * 4) / 4;  // coarse: many equal similarities
    for (float& x : b) x = std::round(spread(rng) * 4) / 4;
    std::vector<double> m(rg * cg);
    for (std::size_t r = 0; r < rg; ++r) {
      for (std::size_t c = 0; c < cg; ++c) {
        float dot = 0, na = 0, nb = 0;
        for (std::size_t d = 0; d < 8; ++d) {
          dot += a[r * 8 + d] * b[c * 8 + d];
          na += a[r * 8 + d] * a[r * 8 + d];
          nb += b[c * 8 + d] * b[c * 8 + d];
        }
        m[r * cg + c] = static_cast<double>(dot / ((std::sqrt(na) + 1e-8f) * (std::sqrt(nb) + 1e-8f)));
      }
    }
    std::vector<std::size_t> col_group;
    for (std::size_t c = 0; c < cg; ++c) col_group.insert(col_group.end(), col_count[c], c);
    std::vector<double> full(rg * col_group.size());
    for (std::size_t r = 0; r < rg; ++r) {
      for (std::size_t j = 0; j < col_group.size(); ++j)
        full[r * col_group.size() + j] = m[r * cg + col_group[j]];
    }
    const auto plain = semantic::optimal_assignment(full, rg, col_group.size());
    const auto flows = semantic::grouped_assignment(m, row_count, col_count);
    CHECK(std::abs(semantic::grouped_total(m, cg, flows) -
                   semantic::assignment_total(full, col_group.size(), plain)) <= 1e-9);
  }
}

TEST_CASE("grouped assignment: empty sides, one group each way, and bad input") {
  const std::vector<std::size_t> none;
  const std::vector<std::size_t> two = {2};
  CHECK(semantic::grouped_assignment({}, none, two).empty());
  CHECK(semantic::grouped_assignment({}, two, none).empty());
  // One gold row of 5 copies against 3 predicted groups of 1: the three best single columns.
  const std::vector<double> m = {0.1, 0.9, 0.5};
  const std::vector<std::size_t> five = {5};
  const std::vector<std::size_t> ones = {1, 1, 1};
  const auto flows = semantic::grouped_assignment(m, five, ones);
  CHECK(flows.size() == 3);
  CHECK(semantic::grouped_total(m, 3, flows) == doctest::Approx(1.5));
  // Greedy would take 0.9 twice (row group 0 has two rows); the optimum is 0.8 + 0.8 + 0.9.
  const std::vector<double> g = {0.9, 0.8, 0.8, 0.0};
  const std::vector<std::size_t> rows = {2, 1};
  const std::vector<std::size_t> cols = {2, 1};
  CHECK(semantic::grouped_total(g, 2, semantic::grouped_assignment(g, rows, cols)) == doctest::Approx(2.5));
  const std::vector<std::size_t> zero = {0};
  CHECK_THROWS_AS(semantic::grouped_assignment(m, zero, ones), std::invalid_argument);
  CHECK_THROWS_AS(semantic::grouped_assignment(m, two, two), std::invalid_argument);
}

TEST_CASE("row similarity matrix: bit for bit row_cosine, pair by pair") {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto random_vector = [&](std::size_t d, bool zero) {
    std::vector<double> v(d, 0.0);
    if (!zero) {
      for (double& x : v) x = normal(rng) / 16;
    }
    return semantic::to_float(v);
  };
  for (const std::size_t d : {1u, 7u, 256u}) {
    for (std::size_t na = 1; na <= 13; na += 3) {
      for (std::size_t nb = 1; nb <= 11; nb += 2) {
        std::vector<semantic::float_vector> as;
        std::vector<semantic::float_vector> bs;
        for (std::size_t a = 0; a < na; ++a) as.push_back(random_vector(d, a == 2));
        for (std::size_t b = 0; b < nb; ++b) bs.push_back(random_vector(d, b == 3));
        if (nb > 1) bs[1] = as[0];
        for (const auto width : {semantic::lane_width::four, semantic::lane_width::widest}) {
          const std::vector<float> m = semantic::row_cosine_matrix(as, bs, width);
          REQUIRE(m.size() == na * nb);
          for (std::size_t a = 0; a < na; ++a) {
            for (std::size_t b = 0; b < nb; ++b) {
              const float want = semantic::row_cosine(as[a], bs[b]);
              CAPTURE(d);
              CAPTURE(a);
              CAPTURE(b);
              CAPTURE(static_cast<int>(width));
              CHECK(std::memcmp(&m[a * nb + b], &want, sizeof want) == 0);
            }
          }
        }
      }
    }
  }
  // Vectors of different lengths: row_cosine's shorter-length rule, pair by pair.
  std::vector<semantic::float_vector> as = {random_vector(5, false), random_vector(3, false)};
  std::vector<semantic::float_vector> bs = {random_vector(4, false)};
  const std::vector<float> m = semantic::row_cosine_matrix(as, bs);
  CHECK(m[0] == semantic::row_cosine(as[0], bs[0]));
  CHECK(m[1] == semantic::row_cosine(as[1], bs[0]));
  CHECK(semantic::row_cosine_matrix({}, bs).empty());
}

TEST_CASE("column descriptions: pandas dtypes, float64 printing, top-10 by frequency") {
  using semantic::column_description;
  using semantic::column_dtype;
  const result r = make_result({"i", "f", "n", "t", "z", "mixed"}, {{1, 1.5, 1, "a", nullptr, 1},
                                                                    {2, nullptr, 2, "b", nullptr, "x"},
                                                                    {2, 3.0, nullptr, "b", nullptr, 1.0}});
  CHECK(column_dtype(r, 0) == "int64");
  CHECK(column_dtype(r, 1) == "float64");
  CHECK(column_dtype(r, 2) == "float64");  // integers and a NULL
  CHECK(column_dtype(r, 3) == "object");
  CHECK(column_dtype(r, 4) == "object");  // all NULL
  CHECK(column_dtype(r, 5) == "object");
  CHECK(column_description(r, 0) == "Column name: i. Data type: int64. Sample values: 2, 1");
  CHECK(column_description(r, 1) == "Column name: f. Data type: float64. Sample values: 1.5, 3.0");
  CHECK(column_description(r, 2) == "Column name: n. Data type: float64. Sample values: 1.0, 2.0");
  CHECK(column_description(r, 3) == "Column name: t. Data type: object. Sample values: b, a");
  // Only NULLs: no sample values, and no "Sample values: " (what the reference wrote).
  CHECK(column_description(r, 4) == "Column name: z. Data type: object. ");
  CHECK(column_description(r, 5) ==
        "Column name: mixed. Data type: object. Sample values: 1, x");  // 1 == 1.0

  const result empty = make_result({"salary"}, {});
  CHECK(column_description(empty, 0) == "Column name: salary. Data type: object. ");

  std::vector<std::vector<test::cell>> rows;
  for (int v = 0; v < 12; ++v) {
    for (int k = 0; k < (v == 11 ? 3 : 1); ++k) rows.push_back({v});
  }
  CHECK(column_description(make_result({"v"}, rows), 0) ==
        "Column name: v. Data type: int64. Sample values: 11, 0, 1, 2, 3, 4, 5, 6, 7, 8");
}

TEST_CASE("row strings: sorted union of names, N/A where a result lacks one, last duplicate") {
  const result r = make_result({"b", "a", "b"}, {{1, "x", 2.5}, {nullptr, "y", 3}});
  CHECK(semantic::row_strings(r, {"a", "b", "c"}) ==
        std::vector<std::string>{"x | 2.5 | N/A", "y | 3 | N/A"});
}

TEST_CASE(
    "semantic columns: permuted columns, more predicted columns, duplicate names (reference bugs fixed)") {
  const result gold = make_result({"name", "salary"}, {{"Alice", 100000}, {"Bob", 80000}, {"Carol", 70000}});
  // (b) permuted and renamed: the reference's exact-cell variant projects in table order and scores 0.
  const result permuted =
      make_result({"salary", "employee_name"}, {{100000, "Alice"}, {80000, "Bob"}, {70000, "Carol"}});
  for (const char* t : {"semantic_column_and_exact_cell", "semantic_column_and_partial_cell"}) {
    CAPTURE(t);
    const scores s = evaluate(t, true, gold, permuted);
    CHECK(*s.ex == 0.0);  // row sets differ (column order matters for EX)
    CHECK(*s.exp == 1.0);
    CHECK(*s.exr == 1.0);
    // (a) more predicted columns than gold: each gold column still finds its own counterpart.
    const result wider = make_result({"id", "salary", "employee_name"},
                                     {{1, 100000, "Alice"}, {2, 80000, "Bob"}, {3, 70000, "Carol"}});
    const scores w = evaluate(t, true, gold, wider);
    CHECK(*w.exr == 1.0);
    CHECK(*w.exp == doctest::Approx(6.0 / 9.0));
    CHECK(*evaluate(t, false, gold, wider).exp == 1.0);
    // (c) duplicate names are columns like any other.
    const result dup = make_result({"name", "name"}, {{"Alice", "Alice"}, {"Bob", "Bob"}});
    const scores d = evaluate(t, true, dup, dup);
    CHECK(*d.ex == 1.0);
    const scores d2 = evaluate(t, true, gold, dup);
    CHECK(*d2.ex == 0.0);
  }
}

TEST_CASE("semantic columns: empty results force EX") {
  const result gold = make_result({"AirportCode"}, {});
  const result pred = make_result({"SourceAirport"}, {{" AXG"}});
  for (const char* t : {"semantic_column_and_exact_cell", "semantic_column_and_partial_cell"}) {
    CAPTURE(t);
    const scores pen = evaluate(t, true, gold, pred);
    CHECK(*pen.ex == 0.0);
    CHECK(*pen.exp == 0.0);
    CHECK(*pen.exr == 1.0);
    // Not penalizing, with no pair the predicted cells count 0 as well: both counts 0 → EX forced to 1.
    const scores free = evaluate(t, false, gold, pred);
    CHECK(*free.ex == 1.0);
    CHECK(*free.f1 == 1.0);
  }
}

TEST_CASE("unified: empty results, identical rows, and negative similarity") {
  const std::string t = "unified_column_and_semantic_row";
  const result empty = make_result({"a"}, {});
  const result one = make_result({"a"}, {{"x"}});
  const scores both = evaluate(t, std::nullopt, empty, empty);
  CHECK((*both.ex == 1.0 && *both.exp == 1.0 && *both.exr == 1.0 && *both.f1 == 1.0));
  const scores gold_empty = evaluate(t, std::nullopt, empty, one);
  CHECK((*gold_empty.ex == 0.0 && *gold_empty.exp == 0.0 && *gold_empty.exr == 0.0 && *gold_empty.f1 == 0.0));
  const scores pred_empty = evaluate(t, std::nullopt, one, empty);
  CHECK((*pred_empty.exp == 0.0 && *pred_empty.f1 == 0.0));
  // Gold 2 rows, pred 1 identical row: S = 1 (the identical pair), EXP = 1, EXR = 1/2.
  const result two = make_result({"a"}, {{"x"}, {"a quite different value"}});
  const scores partial = evaluate(t, std::nullopt, two, one);
  CHECK(*partial.exp == doctest::Approx(1.0));
  CHECK(*partial.exr == doctest::Approx(0.5));
  // Find two short strings whose hash-trigram vectors point away from each other: the scores go
  // negative, F1 is then 0.
  bool found = false;
  for (int a = 0; a < 200 && !found; ++a) {
    for (int b = 0; b < 200 && !found; ++b) {
      const std::string x = "v" + std::to_string(a);
      const std::string y = "w" + std::to_string(b);
      if (dot_left_to_right(builtin::hash_trigram_vector(x), builtin::hash_trigram_vector(y)) > -0.2)
        continue;
      const scores s = evaluate(t, std::nullopt, make_result({"a"}, {{x}}), make_result({"a"}, {{y}}));
      CHECK(*s.exp < 0.0);
      CHECK(*s.exr == *s.exp);
      CHECK(*s.f1 == 0.0);
      found = true;
    }
  }
  CHECK(found);
}

TEST_CASE("optimal_assignment of a matrix with one score everywhere pairs row i with column i") {
  // What the shortest-augmenting-path search gives when every pair ties (each row reaches the first
  // free column through tight ones): optimal_assignment answers it at once, with the same pairs.
  for (const auto& [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{
           {1, 1}, {3, 3}, {2, 7}, {7, 2}, {40, 41}, {41, 40}, {64, 9}}) {
    for (const double score : {0.0, 0.5, -3.0}) {
      const std::vector<double> m(rows * cols, score);
      const auto got = semantic::optimal_assignment(m, rows, cols);
      REQUIRE(got.size() == rows);
      for (std::size_t r = 0; r < rows; ++r) CHECK(got[r] == (r < cols ? r : semantic::unassigned));
    }
  }
}
