#pragma once
/// \file spider_sql.hpp
/// SQL parsed the way Spider's official evaluator parses it (`process_sql.py` of
/// test-suite-sql-eval): its tokenizer (quoted values set aside, NLTK's word tokenizer, `!=` `>=`
/// `<=` rejoined), its grammar with every quirk (`LIMIT n` is always 1, only `AS` makes an alias,
/// trailing text after a complete top-level query is ignored, ...), and its parse tree, so that
/// metrics comparing parse trees (exact set match) and Spider's difficulty levels give the official
/// numbers. The tree mirrors process_sql's nested tuples and dicts; `==` is Python's `==` on them.
///
/// With a schema, names resolve as process_sql resolves them (`__table.column__`, `__all__` for
/// `*`, `__table__`) and an unknown name is a parse error; without one (difficulty levels need no
/// schema) any name is accepted and kept as written.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sqlmorph::spider {

/// A nullable owning pointer with value semantics: copies copy the pointee, `==` compares pointees
/// (two nulls are equal). Holds the recursive parts of a query.
template <class T>
class deep_ptr {
 public:
  deep_ptr() = default;
  explicit deep_ptr(T value) : p_(std::make_unique<T>(std::move(value))) {}
  deep_ptr(const deep_ptr& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  deep_ptr(deep_ptr&&) noexcept = default;
  deep_ptr& operator=(const deep_ptr& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  deep_ptr& operator=(deep_ptr&&) noexcept = default;
  ~deep_ptr() = default;

  explicit operator bool() const noexcept { return p_ != nullptr; }
  T& operator*() const noexcept { return *p_; }
  T* operator->() const noexcept { return p_.get(); }
  T* get() const noexcept { return p_.get(); }
  void reset() noexcept { p_.reset(); }
  bool operator==(const deep_ptr& o) const {
    if (!p_ || !o.p_) return !p_ && !o.p_;
    return *p_ == *o.p_;
  }

 private:
  std::unique_ptr<T> p_;
};

/// process_sql's operator tables; the parse tree holds indexes into them.
inline constexpr const char* agg_ops[] = {"none", "max", "min", "count", "sum", "avg"};
inline constexpr const char* unit_ops[] = {"none", "-", "+", "*", "/"};
inline constexpr const char* where_ops[] = {
    "not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists"};
inline constexpr int op_in = 8;
inline constexpr int op_like = 9;

/// (agg_id, col_id, isDistinct). `distinct` is empty once the official evaluator's rebuild has
/// dropped it (its DISABLE_DISTINCT).
struct col_unit {
  int agg = 0;
  /// `__table.column__`, `__all__` for `*` (schema-less: the name as written).
  std::string column;
  std::optional<bool> distinct = false;
  bool operator==(const col_unit&) const = default;
};

/// (unit_op, col_unit1, col_unit2).
struct val_unit {
  int op = 0;
  col_unit first;
  std::optional<col_unit> second;
  bool operator==(const val_unit&) const = default;
};

struct query;

/// A condition's value: None, a number (Python float), a string token (with its double quotes, as
/// written), a column unit, or a subquery.
using value = std::variant<std::monostate, double, std::string, col_unit, deep_ptr<query>>;

/// (not_op, op_id, val_unit, val1, val2).
struct cond_unit {
  bool negated = false;
  int op = 0;
  val_unit left;
  value first;
  value second;
  bool operator==(const cond_unit&) const = default;
};

/// A condition as process_sql builds it: cond_unit, "and"/"or", cond_unit, ... The list is not
/// always that regular (a condition followed by another without a connector is accepted), so its
/// items are kept as they come, as the Python list holds them.
using cond_item = std::variant<cond_unit, std::string>;
using condition = std::vector<cond_item>;

/// ('table_unit', '__table__') or ('sql', query).
struct table_unit {
  /// `__table__`; empty for a subquery.
  std::string table;
  deep_ptr<query> subquery;
  bool operator==(const table_unit&) const = default;
};

/// (isDistinct, [(agg_id, val_unit), ...]); `distinct` empty once rebuilt.
struct select_clause {
  std::optional<bool> distinct = false;
  std::vector<std::pair<int, val_unit>> items;
  bool operator==(const select_clause&) const = default;
};

/// ('asc'|'desc', [val_unit, ...]); process_sql gives `[]` when there is no ORDER BY.
struct order_clause {
  std::string direction;
  std::vector<val_unit> items;
  bool operator==(const order_clause&) const = default;
};

/// process_sql's sql dict.
struct query {
  select_clause select;
  std::vector<table_unit> from_tables;
  condition from_conds;
  condition where;
  std::vector<col_unit> group_by;
  condition having;
  std::optional<order_clause> order_by;
  /// process_sql's parse_limit: 1 whenever there is a LIMIT, whatever its number.
  std::optional<int> limit;
  deep_ptr<query> intersect;
  deep_ptr<query> union_;
  deep_ptr<query> except;
  bool operator==(const query&) const = default;
};

/// Table and column names of one database, lower-cased: process_sql's Schema (the dict
/// table -> columns, and the `idMap` built from it).
class schema {
 public:
  using table_list = std::vector<std::pair<std::string, std::vector<std::string>>>;
  schema() = default;
  /// Tables in order; a repeated table name replaces the earlier columns and keeps the earlier place,
  /// as assigning to a Python dict does.
  explicit schema(const table_list& tables);
  const table_list& tables() const noexcept { return tables_; }
  /// The columns of `table`, or null.
  const std::vector<std::string>* columns_of(std::string_view table) const;
  /// Whether `key` is a key of idMap: "*", "table" or "table.column".
  bool has_id(std::string_view key) const { return key == "*" || ids_.find(key) != ids_.end(); }

 private:
  table_list tables_;
  std::set<std::string, std::less<>> ids_;
};

/// process_sql's tokenize: quoted values kept as one token each (every `'` becomes `"` first; an odd
/// number of quotes is an error), the rest split as NLTK's word_tokenize does, lower-cased, then
/// `! =`, `> =`, `< =` rejoined. Empty with `error` set on failure.
std::vector<std::string> tokenize(std::string_view sql, std::string* error = nullptr);

/// The outcome of a parse: the query, or why process_sql would raise.
struct parse_result {
  std::optional<query> sql;
  std::string error;
};

/// process_sql's get_sql(schema, sql). `s == nullptr`: names are not resolved (difficulty only).
parse_result parse(std::string_view sql, const schema* s);

/// eval_hardness: "easy", "medium", "hard" or "extra"; empty where the official code itself would
/// raise (a condition list with a connector where a condition belongs).
std::string hardness(const query& q);

}  // namespace sqlmorph::spider
