#include "suite/column_generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sqlmorph::core::suite {
namespace {

std::string two_digits(std::int64_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", static_cast<int>(v));
  return buf;
}

std::string random_word(seeded_random& random) {
  static const char* const letters = "abcdefghijklmnopqrstuvwxyz";
  const std::int64_t n = random.between(3, 8);
  std::string s;
  for (std::int64_t i = 0; i < n; ++i) s += letters[random.below(26)];
  s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace

column_generator::column_generator(value_kind kind, std::vector<sql_value> pool, bool nullable)
    : kind_(kind), pool_(std::move(pool)), nullable_(nullable) {
  bool any = false;
  for (const sql_value& v : pool_) {
    double x = 0;
    if (v.type == sql_value::kind::integer)
      x = static_cast<double>(v.integer);
    else if (v.type == sql_value::kind::real)
      x = v.real;
    else {
      if (v.type == sql_value::kind::text && v.text.size() > 10 && v.text[10] == ' ') has_time_of_day_ = true;
      continue;
    }
    if (!std::isfinite(x)) continue;
    lo_ = any ? std::min(lo_, x) : x;
    hi_ = any ? std::max(hi_, x) : x;
    any = true;
  }
  if (kind_ == value_kind::integer || kind_ == value_kind::real) {
    // Room around the values seen, so comparisons with them go both ways.
    const double margin = std::max(5.0, (hi_ - lo_) / 4);
    lo_ -= margin;
    hi_ += margin;
    if (lo_ < 0 && any && lo_ + margin >= 0) lo_ = 0;  // non-negative pools stay non-negative
  }
}

sql_value column_generator::next(seeded_random& random) const {
  if (nullable_ && random.chance(0.05)) return {};
  const double r = random.unit();
  if (!pool_.empty() && r < 0.6) return pool_[random.below(pool_.size())];
  if (!pool_.empty() && r < 0.8) return varied(pool_[random.below(pool_.size())], random);
  return made_up(random);
}

sql_value column_generator::varied(const sql_value& v, seeded_random& random) const {
  switch (v.type) {
    case sql_value::kind::integer:
      return sql_value::of_int(v.integer + random.between(-2, 2));
    case sql_value::kind::real:
      return sql_value::of_real(std::round((v.real + (random.unit() - 0.5) * 2) * 100) / 100);
    case sql_value::kind::text: {
      if (kind_ == value_kind::date || kind_ == value_kind::time || v.text.size() < 2) return made_up(random);
      // A substring, or the value with a word added: LIKE patterns and prefixes tell these apart.
      if (random.chance(0.5)) {
        const std::size_t from = random.below(v.text.size() / 2 + 1);
        const std::size_t len = 1 + random.below(v.text.size() - from);
        return sql_value::of_text(v.text.substr(from, len));
      }
      return sql_value::of_text(random.chance(0.5) ? v.text + " " + random_word(random)
                                                   : random_word(random) + " " + v.text);
    }
    default:
      return v;
  }
}

sql_value column_generator::made_up(seeded_random& random) const {
  switch (kind_) {
    case value_kind::integer:
      return sql_value::of_int(random.between(static_cast<std::int64_t>(std::floor(lo_)),
                                              static_cast<std::int64_t>(std::ceil(hi_))));
    case value_kind::real:
      return sql_value::of_real(std::round((lo_ + random.unit() * (hi_ - lo_)) * 100) / 100);
    case value_kind::boolean:
      return sql_value::of_int(random.between(0, 1));
    case value_kind::date: {
      std::string s = std::to_string(random.between(1990, 2025)) + "-" + two_digits(random.between(1, 12)) +
                      "-" + two_digits(random.between(1, 28));
      if (has_time_of_day_)
        s += " " + two_digits(random.between(0, 23)) + ":" + two_digits(random.between(0, 59)) + ":" +
             two_digits(random.between(0, 59));
      return sql_value::of_text(s);
    }
    case value_kind::time:
      return sql_value::of_text(two_digits(random.between(0, 23)) + ":" + two_digits(random.between(0, 59)) +
                                ":" + two_digits(random.between(0, 59)));
    case value_kind::text:
      return sql_value::of_text(random_word(random));
    case value_kind::blob:
      return {};
  }
  return {};
}

}  // namespace sqlmorph::core::suite
