// The experiment API: sqlmorph.spider{...}, sqlmorph.cases{...}, sqlmorph.evaluate{...},
// sqlmorph.format_table(header, rows), sqlmorph.write_file(path, text).

#include <algorithm>
#include <fstream>
#include <new>

#include "app/evaluation_request.hpp"
#include "backends/backend_routes.hpp"
#include "config/run_values.hpp"
#include "datasets/bird_files.hpp"
#include "datasets/cases_file.hpp"
#include "datasets/spider_files.hpp"
#include "eval/sql_features.hpp"
#include "lua/sqlmorph_module.hpp"
#include "output/atomic_file.hpp"
#include "output/text_table.hpp"
#include "runner/evaluation_runner.hpp"

namespace sqlmorph::core {
namespace {

constexpr const char* examples_type = "sqlmorph.examples";

using example_list = std::vector<example>;

example_list* check_examples(lua_State* L, int index) {
  return static_cast<example_list*>(luaL_checkudata(L, index, examples_type));
}

int examples_gc(lua_State* L) {
  check_examples(L, 1)->~example_list();
  return 0;
}
int examples_len(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(check_examples(L, 1)->size()));
  return 1;
}

void push_examples(lua_State* L, example_list examples) {
  void* mem = lua_newuserdatauv(L, sizeof(example_list), 0);
  new (mem) example_list(std::move(examples));
  luaL_setmetatable(L, examples_type);
}

std::optional<std::string> opt_string(lua_State* L, int table, const char* field);

// The names of a list field of a table (a string is a list of one); none when absent.
std::vector<std::string> name_list(lua_State* L, int table, const char* field, const char* who) {
  std::vector<std::string> out;
  lua_getfield(L, table, field);
  if (lua_type(L, -1) == LUA_TSTRING) {
    out.emplace_back(lua_tostring(L, -1));
  } else if (lua_istable(L, -1)) {
    const auto n = static_cast<int>(lua_rawlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) != LUA_TSTRING)
        throw usage_error(std::string(who) + ": '" + field + "' lists names");
      out.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    throw usage_error(std::string(who) + ": '" + field + "' must be a name or a list of names");
  }
  lua_pop(L, 1);
  return out;
}

// examples:filter{ gold_has = {FEATURE, ...}, gold_lacks = {...}, pred_has = {...}, pred_lacks = {...},
//                  difficulty = "hard", db_id = "concert_singer", system = "s" } -> the examples that
// match every condition (features: eval/sql_features.hpp feature_names, of the SQL as given).
int examples_filter(lua_State* L, lua_module_context&) {
  const example_list& all = *check_examples(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  const char* who = "examples:filter";
  const auto mask_of = [&](const char* field) {
    std::uint32_t mask = 0;
    for (const std::string& name : name_list(L, 2, field, who)) {
      const auto it =
          std::find_if(feature_names.begin(), feature_names.end(), [&](const char* f) { return name == f; });
      if (it == feature_names.end()) {
        std::string known;
        for (const char* f : feature_names) known += (known.empty() ? "" : ", ") + std::string(f);
        throw usage_error(std::string(who) + ": unknown SQL feature '" + name + "' (known: " + known + ")");
      }
      mask |= 1u << static_cast<unsigned>(it - feature_names.begin());
    }
    return mask;
  };
  const std::uint32_t gold_has = mask_of("gold_has"), gold_lacks = mask_of("gold_lacks");
  const std::uint32_t pred_has = mask_of("pred_has"), pred_lacks = mask_of("pred_lacks");
  const auto difficulty = opt_string(L, 2, "difficulty");
  const auto db_id = opt_string(L, 2, "db_id");
  const auto system = opt_string(L, 2, "system");
  example_list kept;
  for (const example& ex : all) {
    if (difficulty && ex.difficulty != *difficulty) continue;
    if (db_id && ex.db_id != *db_id) continue;
    if (system && ex.system != *system) continue;
    if (gold_has | gold_lacks) {
      const std::uint32_t m = feature_mask(features_of(ex.gold));
      if ((m & gold_has) != gold_has || (m & gold_lacks) != 0) continue;
    }
    if (pred_has | pred_lacks) {
      const std::uint32_t m = ex.pred_missing ? 0 : feature_mask(features_of(ex.pred));
      if ((m & pred_has) != pred_has || (m & pred_lacks) != 0) continue;
    }
    kept.push_back(ex);
  }
  push_examples(L, std::move(kept));
  return 1;
}

std::optional<std::string> opt_string(lua_State* L, int table, const char* field) {
  lua_getfield(L, table, field);
  std::optional<std::string> out;
  if (lua_type(L, -1) == LUA_TSTRING)
    out = lua_tostring(L, -1);
  else if (!lua_isnil(L, -1))
    throw usage_error(std::string("'") + field + "' must be a string");
  lua_pop(L, 1);
  return out;
}

std::string required_string(lua_State* L, int table, const char* field, const char* who) {
  auto v = opt_string(L, table, field);
  if (!v) throw usage_error(std::string(who) + ": '" + field + "' is required");
  return *v;
}

// The `systems` field of sqlmorph.spider / sqlmorph.bird: { {name = N, pred = FILE}, ... } or
// { N = FILE, ... } (in name order). Never empty.
std::vector<std::pair<std::string, std::string>> systems_field(lua_State* L, const std::string& who) {
  std::vector<std::pair<std::string, std::string>> systems;
  lua_getfield(L, 1, "systems");
  if (!lua_istable(L, -1))
    throw usage_error(who + ": 'systems' is required: { {name = ..., pred = ...}, ... }");
  const int list = lua_gettop(L);
  const auto n = static_cast<int>(lua_rawlen(L, list));
  const std::string entry_who = who + " systems";
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, list, i);
    if (!lua_istable(L, -1))
      throw usage_error(who + ": systems[" + std::to_string(i) + "] must be {name = ..., pred = ...}");
    systems.push_back({required_string(L, lua_gettop(L), "name", entry_who.c_str()),
                       required_string(L, lua_gettop(L), "pred", entry_who.c_str())});
    lua_pop(L, 1);
  }
  if (n == 0) {  // the map form, in name order
    std::map<std::string, std::string> by_name;
    lua_pushnil(L);
    while (lua_next(L, list) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING) {
        throw usage_error(who + ": systems must map names to prediction files");
      }
      by_name[lua_tostring(L, -2)] = lua_tostring(L, -1);
      lua_pop(L, 1);
    }
    systems.assign(by_name.begin(), by_name.end());
  }
  lua_pop(L, 1);
  if (systems.empty()) throw usage_error(who + ": 'systems' is empty");
  return systems;
}

// sqlmorph.spider{ gold = FILE, db_root = DIR, systems = { {name = N, pred = FILE}, ... } or { N = FILE, ...
// },
//                  pred_tabs = "official" | "keep" }
int spider(lua_State* L, lua_module_context&) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const std::string gold = required_string(L, 1, "gold", "sqlmorph.spider");
  const std::string db_root = required_string(L, 1, "db_root", "sqlmorph.spider");
  const prediction_tabs tabs = parse_prediction_tabs(opt_string(L, 1, "pred_tabs").value_or("official"));
  const auto systems = systems_field(L, "sqlmorph.spider");
  const spider_gold gold_lines = read_spider_gold(gold, db_root);
  example_list all;
  for (const auto& [name, pred] : systems) {
    example_list ex = spider_examples(gold_lines, pred, name, tabs);
    all.insert(all.end(), std::make_move_iterator(ex.begin()), std::make_move_iterator(ex.end()));
  }
  push_examples(L, std::move(all));
  return 1;
}

// sqlmorph.bird{ gold = mini_dev_<dialect>.json, db_root = DIR, systems = (as sqlmorph.spider's) }
int bird(lua_State* L, lua_module_context&) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const std::string gold = required_string(L, 1, "gold", "sqlmorph.bird");
  const std::string db_root = required_string(L, 1, "db_root", "sqlmorph.bird");
  example_list all;
  for (const auto& [name, pred] : systems_field(L, "sqlmorph.bird")) {
    example_list ex = read_bird_files({gold, pred, db_root, name});
    all.insert(all.end(), std::make_move_iterator(ex.begin()), std::make_move_iterator(ex.end()));
  }
  push_examples(L, std::move(all));
  return 1;
}

// examples:on("pg") or examples:on{ gold = "sqlite", pred = "pg" } -> the same examples, their
// queries routed to those backends (names of sqlmorph.toml's [backends] or backend components):
// one run can send each benchmark's SQL to its own engine (BIRD's dialects).
int examples_on(lua_State* L, lua_module_context&) {
  example_list routed = *check_examples(L, 1);
  std::string gold;
  std::string pred;
  if (lua_type(L, 2) == LUA_TSTRING) {
    gold = pred = lua_tostring(L, 2);
  } else if (lua_istable(L, 2)) {
    gold = required_string(L, 2, "gold", "examples:on");
    pred = required_string(L, 2, "pred", "examples:on");
  } else {
    throw usage_error("examples:on takes a backend name or { gold = NAME, pred = NAME }");
  }
  if (gold.empty() || pred.empty()) throw usage_error("examples:on: a backend name is empty");
  for (example& ex : routed) {
    ex.gold_backend = gold;
    ex.pred_backend = pred;
  }
  push_examples(L, std::move(routed));
  return 1;
}

// sqlmorph.cases{ file = FILE, db_root = DIR, system = NAME }
int cases(lua_State* L, lua_module_context&) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const std::string file = required_string(L, 1, "file", "sqlmorph.cases");
  const auto root = opt_string(L, 1, "db_root");
  example_list ex = read_cases_file(file, root ? std::optional<std::filesystem::path>(*root) : std::nullopt);
  if (const auto system = opt_string(L, 1, "system")) {
    for (example& e : ex) e.system = *system;
  }
  push_examples(L, std::move(ex));
  return 1;
}

// judges = "a,b" | { "name", sqlmorph.judges.NAME{...}, name = sqlmorph.judges.NAME{...} | "name", ... }
std::vector<configured_judge> judges_field(lua_State* L, int table, lua_module_context& ctx) {
  std::vector<configured_judge> out;
  lua_getfield(L, table, "judges");
  const int judges = lua_gettop(L);  // stack: ..., judges
  bool single = false;               // one component object, not a list
  if (lua_istable(L, judges) && lua_getmetatable(L, judges)) {
    luaL_getmetatable(L, "sqlmorph.component");
    single = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  if (single) {
    component_spec spec = lua_component_spec(L, judges, "judge", "sqlmorph.evaluate: judges", ctx);
    std::string n = spec.name;
    out.push_back(make_judge(*ctx.registry, std::move(n), std::move(spec), "script"));
  } else if (lua_type(L, judges) == LUA_TSTRING) {
    out = resolve_judges(*ctx.config, *ctx.registry, split_judge_list(lua_tostring(L, judges)));
  } else if (lua_istable(L, judges)) {
    const std::string origin = caller_origin(L);
    const auto one = [&](int index, const std::optional<std::string>& name, const std::string& what) {
      if (lua_type(L, index) == LUA_TSTRING) {
        configured_judge j = resolve_judge(*ctx.config, *ctx.registry, lua_tostring(L, index));
        if (name) j.name = *name;
        out.push_back(std::move(j));
      } else {
        component_spec spec = lua_component_spec(L, index, "judge", what, ctx);
        std::string n = name ? *name : spec.name;
        out.push_back(
            make_judge(*ctx.registry, std::move(n), std::move(spec), origin.empty() ? "script" : origin));
      }
    };
    const auto n = static_cast<int>(lua_rawlen(L, judges));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, judges, i);
      one(lua_gettop(L), std::nullopt, "sqlmorph.evaluate: judges[" + std::to_string(i) + "]");
      lua_pop(L, 1);
    }
    // Named entries, in name order (a table's order is not the script's).
    std::vector<std::string> names;
    lua_pushnil(L);
    while (lua_next(L, judges) != 0) {  // stack: ..., judges, key, value
      if (lua_type(L, -2) == LUA_TSTRING) names.emplace_back(lua_tostring(L, -2));
      lua_pop(L, 1);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      lua_getfield(L, judges, name.c_str());
      one(lua_gettop(L), name, "sqlmorph.evaluate: judges." + name);
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, judges)) {
    throw usage_error(
        "sqlmorph.evaluate: 'judges' must be \"a,b\" or a list of judge names and sqlmorph.judges.NAME{...}");
  }
  lua_pop(L, 1);
  check_unique_judge_names(out);
  return out;
}

void push_optional(lua_State* L, const std::optional<double>& v) {
  if (v)
    lua_pushnumber(L, *v);
  else
    lua_pushnil(L);
}

// sqlmorph.evaluate{ examples = E or {E1, E2}, techniques = "all" or {...}, penalize = "true"|"false"|"both",
//                    plug_value = bool, tables = FILE (Spider's tables.json, for spider_exact_match),
//                    keep_rows = N (rows per result in examples.jsonl), sqlmorph_logs = DIR,
//                    timeout = S, gold_timeout = S, pred_timeout = S, max_rows = N,
//                    jobs = N, backend = NAME, gold_backend = NAME, pred_backend = NAME, databases = { db_id
//                    = NAME }, backends = { NAME, ... } (each example on each, systems SYSTEM@NAME), out =
//                    DIR, resume = bool, overwrite = bool, cache = DIR, progress =
//                    "none"|"auto"|"bar"|"lines", on_script_error = "mark"|"abort", judges = "a,b" | { NAME,
//                    sqlmorph.judges.X{...}, ... }
//                    }
// What only an experiment may do: not a technique file being declared (its side effects would run
// at every start of sqlmorph, in every command).
void require_experiment(const lua_module_context& ctx, const char* function) {
  if (!ctx.in_experiment) {
    throw usage_error(std::string("sqlmorph.") + function +
                      " works in experiment scripts (sqlmorph run SCRIPT.lua), not in technique files");
  }
}

// examples = E or {E1, E2}: the example sets, joined.
example_list examples_field(lua_State* L) {
  example_list examples;
  lua_getfield(L, 1, "examples");
  if (luaL_testudata(L, -1, examples_type) != nullptr) {
    examples = *check_examples(L, -1);
  } else if (lua_istable(L, -1)) {
    const auto n = static_cast<int>(lua_rawlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      const example_list& part = *check_examples(L, -1);
      examples.insert(examples.end(), part.begin(), part.end());
      lua_pop(L, 1);
    }
  } else {
    throw usage_error(
        "sqlmorph.evaluate: 'examples' is required (from sqlmorph.spider{...} or sqlmorph.cases{...})");
  }
  lua_pop(L, 1);
  return examples;
}

// The fields of sqlmorph.evaluate{...} as a request for the shared builder (app/evaluation_request);
// `backends` multiplies `examples` (each on each backend).
evaluation_request request_fields(lua_State* L, lua_module_context& ctx, example_list& examples) {
  evaluation_request r;
  r.name = [](std::string_view setting) { return "sqlmorph.evaluate: '" + std::string(setting) + "'"; };
  lua_getfield(L, 1, "techniques");
  if (lua_type(L, -1) == LUA_TSTRING) {
    r.techniques = split_technique_list(lua_tostring(L, -1));
  } else if (lua_istable(L, -1)) {
    r.techniques.clear();
    const auto n = static_cast<int>(lua_rawlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) != LUA_TSTRING)
        throw usage_error("sqlmorph.evaluate: 'techniques' lists technique names");
      r.techniques.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    throw usage_error("sqlmorph.evaluate: 'techniques' must be \"all\" or a list of names");
  }
  lua_pop(L, 1);

  lua_getfield(L, 1, "penalize");
  if (lua_isboolean(L, -1))
    r.penalize = lua_toboolean(L, -1) ? "true" : "false";
  else if (lua_type(L, -1) == LUA_TSTRING)
    r.penalize = lua_tostring(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, 1, "plug_value");
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    throw usage_error("sqlmorph.evaluate: 'plug_value' must be a boolean (the official Spider --plug_value)");
  r.plug_value = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);

  const auto number_field = [&](const char* field) -> std::optional<double> {
    lua_getfield(L, 1, field);
    std::optional<double> v;
    if (lua_isnumber(L, -1))
      v = lua_tonumber(L, -1);
    else if (!lua_isnil(L, -1))
      throw usage_error(std::string("sqlmorph.evaluate: '") + field + "' must be a number");
    lua_pop(L, 1);
    return v;
  };
  const auto flag_field = [&](const char* field) {
    lua_getfield(L, 1, field);
    const bool on = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    return on;
  };
  const auto path_field = [&](const char* field) -> std::optional<std::filesystem::path> {
    if (const auto text = opt_string(L, 1, field)) return std::filesystem::path(*text);
    return std::nullopt;
  };
  r.limits.timeout = number_field("timeout");
  r.limits.gold_timeout = number_field("gold_timeout");
  r.limits.pred_timeout = number_field("pred_timeout");
  r.limits.max_rows = number_field("max_rows");
  r.keep_rows = number_field("keep_rows");
  r.jobs = number_field("jobs");
  r.resume = flag_field("resume");
  r.overwrite = flag_field("overwrite");
  r.require_databases = flag_field("require_databases");
  r.cache = path_field("cache");
  r.out = path_field("out");
  r.sqlmorph_logs = path_field("sqlmorph_logs");
  r.tables = path_field("tables");
  r.progress = parse_progress_mode(opt_string(L, 1, "progress").value_or("none"));
  r.on_script_error = opt_string(L, 1, "on_script_error");
  r.routes.backend = opt_string(L, 1, "backend");
  r.routes.gold_backend = opt_string(L, 1, "gold_backend");
  r.routes.pred_backend = opt_string(L, 1, "pred_backend");
  lua_getfield(L, 1, "databases");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {  // stack: databases, key, value
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING) {
        throw usage_error("sqlmorph.evaluate: 'databases' maps db_id = \"backend name\"");
      }
      r.routes.databases.emplace_back(lua_tostring(L, -2), lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    throw usage_error("sqlmorph.evaluate: 'databases' must be a table { db_id = \"backend\" }");
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "backends");
  if (lua_istable(L, -1)) {
    const auto n = static_cast<int>(lua_rawlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) != LUA_TSTRING)
        throw usage_error("sqlmorph.evaluate: 'backends' lists backend names");
      r.backends.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    throw usage_error("sqlmorph.evaluate: 'backends' must be a list of backend names");
  }
  lua_pop(L, 1);
  if (!r.backends.empty()) examples = examples_on_each_backend(examples, r.backends);
  // Backends the examples name themselves (examples:on) are set up too.
  for (const std::string& b : backends_named_by(examples)) {
    if (std::find(r.backends.begin(), r.backends.end(), b) == r.backends.end()) r.backends.push_back(b);
  }
  r.judges = judges_field(L, 1, ctx);
  // The remote services (judges, embedders) answer before anything runs, as in `eval`.
  lua_getfield(L, 1, "preflight");
  r.preflight = lua_isnil(L, -1) ? ctx.preflight : lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  return r;
}

// rows = { {system, technique, penalize, count, scored, EX, EXP, EXR, F1, statuses}, ... }
void push_technique_rows(lua_State* L, const run_summary& summary) {
  const auto& groups = summary.groups();
  lua_createtable(L, static_cast<int>(groups.size()), 0);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const run_summary::group& g = groups[i];
    lua_createtable(L, 0, 10);
    lua_pushstring(L, g.system.c_str());
    lua_setfield(L, -2, "system");
    lua_pushstring(L, g.technique.c_str());
    lua_setfield(L, -2, "technique");
    if (g.penalize) {
      lua_pushboolean(L, *g.penalize);
      lua_setfield(L, -2, "penalize");
    }
    lua_pushinteger(L, static_cast<lua_Integer>(g.count));
    lua_setfield(L, -2, "count");
    lua_pushinteger(L, static_cast<lua_Integer>(g.n[0]));
    lua_setfield(L, -2, "scored");
    const char* names[] = {"EX", "EXP", "EXR", "F1"};
    for (int m = 0; m < 4; ++m) {
      push_optional(L, g.mean(m));
      lua_setfield(L, -2, names[m]);
    }
    lua_newtable(L);
    for (const auto& [status, n] : g.statuses()) {
      lua_pushinteger(L, static_cast<lua_Integer>(n));
      lua_setfield(L, -2, status.c_str());
    }
    lua_setfield(L, -2, "statuses");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "rows");
}

// exact_match = { {system, count, EM, by_difficulty = { easy = {count, EM}, ..., all = {...} }}, ... }
void push_exact_match(lua_State* L, const run_summary& summary) {
  const auto& exact = summary.exact_match();
  lua_createtable(L, static_cast<int>(exact.size()), 0);
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const std::string& system = exact[i].first;
    const spider::exact_match_summary& em = exact[i].second;
    const auto push_level = [&](const spider::exact_match_level& level) {
      lua_pushinteger(L, static_cast<lua_Integer>(level.count));
      lua_setfield(L, -2, "count");
      lua_pushnumber(L, level.exact);
      lua_setfield(L, -2, "EM");
    };
    lua_createtable(L, 0, 4);
    lua_pushstring(L, system.c_str());
    lua_setfield(L, -2, "system");
    push_level(em.level("all"));
    lua_createtable(L, 0, static_cast<int>(spider::exact_match_levels.size()));
    for (const char* name : spider::exact_match_levels) {
      lua_createtable(L, 0, 2);
      push_level(em.level(name));
      lua_setfield(L, -2, name);
    }
    lua_setfield(L, -2, "by_difficulty");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "exact_match");
}

// judges = { {system, judge, count, labelled, mean_label, mean_confidence, agreement, compared,
//             counts = {judge1_ex1, ...}, prompt_tokens, completion_tokens, statuses}, ... }
void push_judge_rows(lua_State* L, const run_summary& summary) {
  const auto& judged = summary.judge_groups();
  lua_createtable(L, static_cast<int>(judged.size()), 0);
  for (std::size_t i = 0; i < judged.size(); ++i) {
    const run_summary::judge_group& g = judged[i];
    lua_createtable(L, 0, 12);
    lua_pushstring(L, g.system.c_str());
    lua_setfield(L, -2, "system");
    lua_pushstring(L, g.judge.c_str());
    lua_setfield(L, -2, "judge");
    lua_pushinteger(L, static_cast<lua_Integer>(g.count));
    lua_setfield(L, -2, "count");
    lua_pushinteger(L, static_cast<lua_Integer>(g.labelled));
    lua_setfield(L, -2, "labelled");
    push_optional(L, g.mean_label());
    lua_setfield(L, -2, "mean_label");
    push_optional(L, g.mean_confidence());
    lua_setfield(L, -2, "mean_confidence");
    if (summary.has_execution_accuracy()) {
      push_optional(L, g.agreement());
      lua_setfield(L, -2, "agreement");
      lua_pushinteger(L, static_cast<lua_Integer>(g.compared()));
      lua_setfield(L, -2, "compared");
      lua_createtable(L, 0, 4);
      const char* names[] = {"judge1_ex1", "judge1_ex0", "judge0_ex1", "judge0_ex0"};
      for (std::size_t k = 0; k < 4; ++k) {
        lua_pushinteger(L, static_cast<lua_Integer>(g.versus_ex[k]));
        lua_setfield(L, -2, names[k]);
      }
      lua_setfield(L, -2, "counts");
    }
    lua_pushinteger(L, static_cast<lua_Integer>(g.prompt_tokens));
    lua_setfield(L, -2, "prompt_tokens");
    lua_pushinteger(L, static_cast<lua_Integer>(g.completion_tokens));
    lua_setfield(L, -2, "completion_tokens");
    lua_newtable(L);
    for (const auto& [status, n] : g.statuses()) {
      lua_pushinteger(L, static_cast<lua_Integer>(n));
      lua_setfield(L, -2, status.c_str());
    }
    lua_setfield(L, -2, "statuses");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "judges");
}

int evaluate(lua_State* L, lua_module_context& ctx) {
  require_experiment(ctx, "evaluate");
  luaL_checktype(L, 1, LUA_TTABLE);
  if (ctx.replay()) throw usage_error("sqlmorph.evaluate cannot run inside a technique script");
  example_list examples = examples_field(L);
  const evaluation_request r = request_fields(L, ctx, examples);
  const evaluation_settings settings = evaluation_settings_for(r, *ctx.config, *ctx.registry, *ctx.catalog);
  const evaluation_outcome outcome = run_evaluation(examples, settings);
  if (outcome.stats.interrupted)
    throw usage_error("sqlmorph.evaluate was interrupted; evaluate with resume = true to continue");

  // { examples, wall_seconds, out, rows, exact_match, judges }
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, static_cast<lua_Integer>(outcome.examples));
  lua_setfield(L, -2, "examples");
  lua_pushnumber(L, outcome.wall_seconds);
  lua_setfield(L, -2, "wall_seconds");
  if (settings.out_dir) {
    lua_pushstring(L, settings.out_dir->string().c_str());
    lua_setfield(L, -2, "out");
  }
  push_technique_rows(L, outcome.summary);
  push_exact_match(L, outcome.summary);
  push_judge_rows(L, outcome.summary);
  return 1;
}

// sqlmorph.format_table({"col", ...}, { {"a", 1.5}, ... }) -> text; numbers right-aligned.
int format_table(lua_State* L, lua_module_context&) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  text_table table;
  std::vector<std::string> header;
  const auto nh = static_cast<int>(lua_rawlen(L, 1));
  for (int i = 1; i <= nh; ++i) {
    lua_rawgeti(L, 1, i);
    header.emplace_back(luaL_tolstring(L, -1, nullptr));
    lua_pop(L, 2);
  }
  table.set_header(header);
  std::set<std::size_t> numeric;
  const auto nr = static_cast<int>(lua_rawlen(L, 2));
  for (int r = 1; r <= nr; ++r) {
    lua_rawgeti(L, 2, r);
    if (!lua_istable(L, -1)) throw usage_error("sqlmorph.format_table: every row must be a list");
    std::vector<std::string> row;
    const auto nc = static_cast<int>(lua_rawlen(L, -1));
    for (int c = 1; c <= nc; ++c) {
      lua_rawgeti(L, -1, c);
      if (lua_type(L, -1) == LUA_TNUMBER) {
        numeric.insert(static_cast<std::size_t>(c - 1));
        if (lua_isinteger(L, -1)) {
          row.push_back(std::to_string(lua_tointeger(L, -1)));
        } else {
          char buf[32];
          std::snprintf(buf, sizeof buf, "%.4f", lua_tonumber(L, -1));
          row.emplace_back(buf);
        }
      } else if (lua_isnil(L, -1)) {
        row.emplace_back("-");
      } else {
        row.emplace_back(luaL_tolstring(L, -1, nullptr));
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    table.add_row(std::move(row));
    lua_pop(L, 1);
  }
  table.align_right(numeric);
  const std::string text = table.render();
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// sqlmorph.write_file(path, text): creates the folders it needs; replaces the file atomically.
int write_file(lua_State* L, lua_module_context& ctx) {
  require_experiment(ctx, "write_file");
  const std::filesystem::path path = luaL_checkstring(L, 1);
  std::size_t n = 0;
  const char* text = luaL_checklstring(L, 2, &n);
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  try {
    // Atomic, and refused for what is not a regular file (/proc/self/mem, a device, a FIFO).
    write_file_atomically(path, std::string_view(text, n));
  } catch (const usage_error& e) {
    throw usage_error(std::string("sqlmorph.write_file: ") + e.what());
  }
  return 0;
}

}  // namespace

void add_experiment_functions(lua_State* L, lua_module_context& ctx) {
  static const luaL_Reg examples_meta[] = {
      {"__gc", &examples_gc}, {"__len", &examples_len}, {nullptr, nullptr}};
  luaL_newmetatable(L, examples_type);
  luaL_setfuncs(L, examples_meta, 0);
  lua_newtable(L);  // the methods of an example set
  set_module_function(L, ctx, "filter", &examples_filter);
  set_module_function(L, ctx, "on", &examples_on);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  set_module_function(L, ctx, "spider", &spider);
  set_module_function(L, ctx, "bird", &bird);
  set_module_function(L, ctx, "cases", &cases);
  set_module_function(L, ctx, "evaluate", &evaluate);
  set_module_function(L, ctx, "format_table", &format_table);
  set_module_function(L, ctx, "write_file", &write_file);
}

}  // namespace sqlmorph::core
