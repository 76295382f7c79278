#include "suite/database_fuzzer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <system_error>

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::core::suite {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

// The names a query mentions (words and quoted names, lower case).
std::set<std::string> names_in(std::string_view sql) {
  std::set<std::string> out;
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind == sql_token_kind::word) out.insert(lower(t.text));
    if (t.kind == sql_token_kind::quoted_name && t.text.size() >= 2)
      out.insert(lower(t.text.substr(1, t.text.size() - 2)));
  }
  return out;
}

bool is_date_text(const std::string& s) {
  return s.size() >= 8 && std::isdigit(static_cast<unsigned char>(s[0])) != 0 && (s[4] == '-' || s[4] == '/');
}

std::size_t column_index(const table_info& t, const std::string& name) {
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (lower(t.columns[i].name) == lower(name)) return i;
  return t.columns.size();
}

std::size_t table_index(const schema_info& s, const std::string& name) {
  for (std::size_t i = 0; i < s.tables.size(); ++i)
    if (lower(s.tables[i].name) == lower(name)) return i;
  return s.tables.size();
}

std::vector<std::size_t> parents_first(const schema_info& s) {
  std::vector<std::size_t> order;
  std::vector<int> state(s.tables.size(), 0);  // 0 new, 1 visiting, 2 done
  // Depth-first: a table after every parent it is not in a cycle with.
  std::vector<std::pair<std::size_t, std::size_t>> stack;
  for (std::size_t root = 0; root < s.tables.size(); ++root) {
    if (state[root] != 0) continue;
    stack.emplace_back(root, 0);
    state[root] = 1;
    while (!stack.empty()) {
      auto& [t, next] = stack.back();
      const auto& fks = s.tables[t].foreign_keys;
      if (next < fks.size()) {
        const std::size_t p = table_index(s, fks[next].parent);
        ++next;
        if (p < s.tables.size() && state[p] == 0) {
          state[p] = 1;
          stack.emplace_back(p, 0);
        }
        continue;
      }
      state[t] = 2;
      order.push_back(t);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace

fuzz_plan plan_fuzzing(sqlite_database& original, const std::vector<std::string>& gold_queries,
                       const fuzz_options& options) {
  fuzz_plan plan;
  plan.schema = read_schema(original);
  plan.fill_order = parents_first(plan.schema);
  std::vector<std::set<std::string>> mentioned;
  for (const std::string& q : gold_queries) mentioned.push_back(names_in(q));
  neighbour_schema names;  // for telling string constants from quoted names
  for (const table_info& t : plan.schema.tables) {
    names.tables.push_back({t.name, {}});
    for (const column_info& c : t.columns) names.tables.back().columns.push_back({c.name, value_kind::text});
  }
  std::vector<std::vector<std::string>> strings;
  std::vector<std::vector<double>> numbers;
  for (const std::string& q : gold_queries) {
    strings.push_back(query_string_constants(q, names));
    numbers.push_back(query_number_constants(q));
  }
  for (const table_info& t : plan.schema.tables) {
    std::vector<column_generator> row;
    for (const column_info& c : t.columns) {
      std::vector<sql_value> pool;
      std::set<std::string> keys;
      for (auto& r : original.rows("SELECT DISTINCT " + quote_sql_name(c.name) + " FROM " +
                                   quote_sql_name(t.name) + " WHERE " + quote_sql_name(c.name) +
                                   " IS NOT NULL LIMIT " + std::to_string(options.samples_per_column))) {
        if (keys.insert(r[0].key()).second) pool.push_back(std::move(r[0]));
      }
      const value_kind kind = column_value_kind(c.declared_type, c.name, pool);
      // The constants of the gold queries that mention this column.
      for (std::size_t q = 0; q < gold_queries.size(); ++q) {
        if (mentioned[q].count(lower(c.name)) == 0) continue;
        if (kind == value_kind::integer || kind == value_kind::real || kind == value_kind::boolean) {
          for (const double v : numbers[q]) {
            const sql_value x = kind != value_kind::real && std::floor(v) == v && std::fabs(v) < 9e15
                                    ? sql_value::of_int(static_cast<std::int64_t>(v))
                                    : sql_value::of_real(v);
            if (keys.insert(x.key()).second) pool.push_back(x);
          }
        } else if (kind != value_kind::blob) {
          for (const std::string& s : strings[q]) {
            if ((kind == value_kind::date) != is_date_text(s)) continue;
            const sql_value x = sql_value::of_text(s);
            if (keys.insert(x.key()).second) pool.push_back(x);
          }
        }
      }
      row.emplace_back(kind, std::move(pool), !c.not_null && c.pk == 0);
    }
    plan.generators.push_back(std::move(row));
  }
  return plan;
}

neighbour_schema schema_for_neighbours(const fuzz_plan& plan) {
  neighbour_schema s;
  for (std::size_t t = 0; t < plan.schema.tables.size(); ++t) {
    s.tables.push_back({plan.schema.tables[t].name, {}});
    for (std::size_t c = 0; c < plan.schema.tables[t].columns.size(); ++c)
      s.tables.back().columns.push_back(
          {plan.schema.tables[t].columns[c].name, plan.generators[t][c].kind()});
  }
  return s;
}

void write_fuzzed_database(const fuzz_plan& plan, const std::filesystem::path& file, seeded_random& random,
                           std::size_t candidate, const fuzz_options& options) {
  std::error_code ec;
  std::filesystem::remove(file, ec);
  sqlite_database db(file, sqlite_database::mode::create);
  db.exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY; BEGIN");
  for (const table_info& t : plan.schema.tables) db.exec(t.create_sql);
  std::vector<std::string> triggers;
  for (const std::string& sql : plan.schema.other_sql) {
    if (lower(sql.substr(0, 14)).find("trigger") != std::string::npos) {
      triggers.push_back(sql);
      continue;
    }
    try {
      db.exec(sql);
    } catch (const std::runtime_error&) {
      // A view or index the original has but SQLite refuses alone (e.g. a view of a missing table):
      // the queries fail on the original too.
    }
  }
  const std::size_t max_rows =
      options.max_rows.empty() ? 10 : options.max_rows[candidate % options.max_rows.size()];
  const schema_info& s = plan.schema;
  std::vector<std::vector<std::vector<sql_value>>> rows(s.tables.size());
  for (const std::size_t t : plan.fill_order) {
    const table_info& table = s.tables[t];
    const std::size_t n = static_cast<std::size_t>(random.between(1, static_cast<std::int64_t>(max_rows)));
    std::string insert = "INSERT INTO " + quote_sql_name(table.name) + " VALUES (";
    for (std::size_t c = 0; c < table.columns.size(); ++c) insert += c == 0 ? "?" : ", ?";
    insert += ")";
    // The columns of each unique set, and the keys already used.
    std::vector<std::vector<std::size_t>> unique_columns;
    for (const auto& u : table.unique) {
      std::vector<std::size_t> cols;
      for (const std::string& name : u) cols.push_back(column_index(table, name));
      unique_columns.push_back(std::move(cols));
    }
    std::vector<std::set<std::string>> used(unique_columns.size());
    for (std::size_t i = 0; i < n; ++i) {
      bool placed = false;
      for (int attempt = 0; attempt < 20 && !placed; ++attempt) {
        std::vector<sql_value> row;
        row.reserve(table.columns.size());
        for (std::size_t c = 0; c < table.columns.size(); ++c)
          row.push_back(plan.generators[t][c].next(random));
        // Foreign keys: the values of a row the parent holds.
        for (const foreign_key_info& fk : table.foreign_keys) {
          const std::size_t p = table_index(s, fk.parent);
          if (p >= s.tables.size()) continue;
          const table_info& parent = s.tables[p];
          std::vector<std::size_t> to;
          if (fk.to.empty()) {
            for (const auto& u : parent.unique.empty() ? std::vector<std::string>{} : parent.unique.front())
              to.push_back(column_index(parent, u));
          } else {
            for (const std::string& name : fk.to) to.push_back(column_index(parent, name));
          }
          std::vector<std::size_t> from;
          for (const std::string& name : fk.from) from.push_back(column_index(table, name));
          if (to.size() != from.size()) continue;
          std::vector<const std::vector<sql_value>*> usable;
          for (const auto& r : rows[p]) {
            bool ok = true;
            for (const std::size_t c : to)
              if (c >= r.size() || r[c].type == sql_value::kind::null) ok = false;
            if (ok) usable.push_back(&r);
          }
          if (usable.empty()) {
            // No parent row yet (a cycle, or the first row of a self-reference): NULL when allowed.
            for (const std::size_t c : from)
              if (c < row.size() && !table.columns[c].not_null && table.columns[c].pk == 0) row[c] = {};
            continue;
          }
          const auto& chosen = *usable[random.below(usable.size())];
          for (std::size_t k = 0; k < from.size(); ++k)
            if (from[k] < row.size()) row[from[k]] = chosen[to[k]];
        }
        // Primary key and unique sets: no NULL in a primary key, no key used twice.
        bool fits = true;
        std::vector<std::string> keys(unique_columns.size());
        for (std::size_t u = 0; u < unique_columns.size() && fits; ++u) {
          bool has_null = false;
          for (const std::size_t c : unique_columns[u]) {
            if (c >= row.size()) continue;
            if (row[c].type == sql_value::kind::null) has_null = true;
            keys[u] += row[c].key() + '\x1f';
          }
          if (has_null) {
            fits = table.columns[unique_columns[u].front()].pk == 0;  // NULLs never clash in UNIQUE
            keys[u].clear();
            continue;
          }
          if (used[u].count(keys[u]) > 0) fits = false;
        }
        if (!fits) continue;
        if (!db.insert(insert, row)) continue;
        for (std::size_t u = 0; u < unique_columns.size(); ++u)
          if (!keys[u].empty()) used[u].insert(keys[u]);
        rows[t].push_back(std::move(row));
        placed = true;
      }
    }
  }
  for (const std::string& sql : triggers) {
    try {
      db.exec(sql);
    } catch (const std::runtime_error&) {
    }
  }
  db.exec("COMMIT");
}

}  // namespace sqlmorph::core::suite
