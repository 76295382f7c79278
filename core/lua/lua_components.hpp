#pragma once
// Components written in Lua: a normalizer, a cell matcher and a scorer whose work is a Lua function.
// They are called per value, per pair of cells or per example, and only when a technique uses them.

#include <memory>
#include <string>

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/normalizer.hpp>
#include <sqlmorph/scorer.hpp>

#include "lua/lua_home.hpp"

namespace sqlmorph::core {

/// A Lua function of a home, and where it was declared ("techniques/x.lua:12"), for messages.
struct lua_function_ref {
  std::shared_ptr<lua_home> home;
  int id = 0;
  std::string origin;
};

/// `function(value) return value end`, applied to every cell of both results.
class lua_normalizer final : public normalizer {
 public:
  explicit lua_normalizer(lua_function_ref fn) : fn_(std::move(fn)) {}

 protected:
  result do_normalize_(const result& in) const override;

 private:
  lua_function_ref fn_;
};

/// Either `similarity(gold, pred) -> number in [0, 1]` (any similarity; row matchers then score
/// every pair), or `key(value) -> value` (an equivalence: cells match when their keys are equal,
/// and row matchers index them by key).
class lua_cell_matcher final : public cell_matcher {
 public:
  enum class mode { similarity, key };
  lua_cell_matcher(lua_function_ref fn, mode m) : fn_(std::move(fn)), mode_(m) {}
  bool is_equivalence() const noexcept override { return mode_ == mode::key; }
  std::uint64_t equivalence_hash(const value& v) const override;

 protected:
  double do_similarity_(const value& gold, const value& pred) const override;

 private:
  lua_function_ref fn_;
  mode mode_;
};

/// `function(gold, pred, context) return {EX = ..., EXP = ..., extra_field = ...} end`.
class lua_scorer final : public scorer {
 public:
  lua_scorer(lua_function_ref fn, metric_set metrics) : fn_(std::move(fn)), metrics_(metrics) {}
  metric_set metrics() const noexcept override { return metrics_; }

 protected:
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;

 private:
  lua_function_ref fn_;
  metric_set metrics_;
};

}  // namespace sqlmorph::core
