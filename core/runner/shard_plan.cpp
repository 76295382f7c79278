#include "runner/shard_plan.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>

#include "errors.hpp"
#include "runner/content_hash.hpp"
#include "runner/evaluation_runner.hpp"

namespace sqlmorph::core {
namespace {

bool parse_count(std::string_view text, std::size_t& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Consecutive units of one database: what the partition moves as a whole.
struct piece {
  std::size_t first = 0;  // position in the database's unit list
  std::vector<std::size_t> units;
  std::uint64_t cost = 0;
};

}  // namespace

shard_spec parse_shard_spec(const std::string& text) {
  const auto slash = text.find('/');
  shard_spec s;
  if (slash == std::string::npos || !parse_count(std::string_view(text).substr(0, slash), s.index) ||
      !parse_count(std::string_view(text).substr(slash + 1), s.count) || s.count == 0 || s.index >= s.count ||
      s.count > max_shards) {
    throw usage_error("--shard '" + text + "': expected K/N with 0 <= K < N <= " +
                      std::to_string(max_shards) + " (e.g. --shard 0/4 ... --shard 3/4)");
  }
  return s;
}

std::vector<std::size_t> shard_units(const std::vector<example>& examples,
                                     const std::vector<work_unit>& units, shard_spec spec) {
  if (spec.count <= 1) {
    std::vector<std::size_t> all(units.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }
  // A unit executes its gold query once and each system's prediction, and matches their results:
  // work that grows with the database (bigger tables, bigger results). So the estimate is queries x
  // (1 + the database file's size in 32 KiB): on Spider dev, world_1 (330 KB) weighs 11, most
  // databases 1 or 2. A server database (no file) weighs 1.
  std::map<std::string, std::uint64_t> weight_of_db;
  const auto weight = [&](const std::string& db) {
    const auto [it, added] = weight_of_db.try_emplace(db, 1);
    if (added) {
      std::error_code ec;
      if (std::filesystem::is_regular_file(db, ec)) {
        const auto size = std::filesystem::file_size(db, ec);
        if (!ec) it->second = 1 + size / 32768;
      }
    }
    return it->second;
  };
  std::vector<std::uint64_t> unit_cost(units.size());
  for (std::size_t u = 0; u < units.size(); ++u) {
    unit_cost[u] = (1 + static_cast<std::uint64_t>(units[u].examples.size())) *
                   weight(examples[units[u].examples.front()].db);
  }
  const auto cost_of = [&](std::size_t u) { return unit_cost[u]; };
  // Units per database, databases in order of first appearance.
  std::vector<std::vector<std::size_t>> by_db;
  std::map<std::string, std::size_t> db_index;
  std::uint64_t total = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const example& first = examples[units[u].examples.front()];
    const auto [it, added] = db_index.try_emplace(first.db + '\x1f' + first.gold_backend, by_db.size());
    if (added) by_db.emplace_back();
    by_db[it->second].push_back(u);
    total += cost_of(u);
  }
  // A database costing more than half a shard's share is cut into pieces of at most that much,
  // so the largest-first assignment can still even the shards out.
  const std::uint64_t share = (total + spec.count - 1) / spec.count;
  const std::uint64_t max_piece = std::max<std::uint64_t>(1, share / 2);
  std::vector<piece> pieces;
  for (const auto& db_units : by_db) {
    std::uint64_t db_cost = 0;
    for (const std::size_t u : db_units) db_cost += cost_of(u);
    const std::uint64_t limit = db_cost <= share ? db_cost : max_piece;
    piece current;
    current.first = db_units.front();
    for (const std::size_t u : db_units) {
      if (!current.units.empty() && current.cost + cost_of(u) > limit) {
        pieces.push_back(std::move(current));
        current = piece{};
        current.first = u;
      }
      current.units.push_back(u);
      current.cost += cost_of(u);
    }
    if (!current.units.empty()) pieces.push_back(std::move(current));
  }
  std::stable_sort(pieces.begin(), pieces.end(), [](const piece& a, const piece& b) {
    return a.cost != b.cost ? a.cost > b.cost : a.first < b.first;
  });
  std::vector<std::uint64_t> load(spec.count, 0);
  std::vector<std::size_t> mine;
  for (const piece& p : pieces) {
    const std::size_t shard =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[shard] += p.cost;
    if (shard == spec.index) mine.insert(mine.end(), p.units.begin(), p.units.end());
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

std::string unit_keys_digest(const std::vector<record_key>& keys) {
  field_digest digest;  // XXH3-128 (runner/content_hash.hpp)
  const auto add = [&](std::string_view s) { digest.add(s); };
  for (const record_key& k : keys) {
    add(k.id);
    add(k.system);
    add(k.technique);
    add(!k.penalize ? "-" : *k.penalize ? "1" : "0");
  }
  return digest.hex();
}

std::vector<example> select_shard(const std::vector<example>& examples, shard_spec spec,
                                  evaluation_settings& settings) {
  const std::vector<work_unit> units = plan_work(examples);
  shard_run run;
  run.spec = spec;
  if (!settings.content_hashes) settings.content_hashes = std::make_shared<content_hash_memo>();
  run.databases = database_contents(examples, *settings.routes, *settings.content_hashes);
  run.run_fingerprint = run_fingerprint(examples, settings, run.databases);
  run.run_examples = examples.size();
  run.run_units = units.size();
  std::vector<example> mine;
  for (const std::size_t u : shard_units(examples, units, spec)) {
    run.units.push_back(
        {u, units[u].examples.size(),
         unit_keys_digest(unit_record_keys(units[u], examples, settings.techniques,
                                           settings.exact_match != nullptr, settings.judges))});
    for (const std::size_t i : units[u].examples) mine.push_back(examples[i]);
    settings.unit_sizes.push_back(units[u].examples.size());
  }
  settings.manifest["shard"] = run.to_json();
  return mine;
}

nlohmann::ordered_json shard_run::to_json() const {
  nlohmann::ordered_json j;
  j["index"] = spec.index;
  j["count"] = spec.count;
  j["run_fingerprint"] = run_fingerprint;
  j["run_examples"] = run_examples;
  j["run_units"] = run_units;
  j["units"] = nlohmann::ordered_json::array();
  for (const unit& u : units)
    j["units"].push_back(nlohmann::ordered_json::array({u.index, u.examples, u.keys_digest}));
  j["database_hashes"] = database_hashes_json(databases);
  return j;
}

shard_run shard_run::from_json(const nlohmann::json& j, const std::string& where) {
  // Every number is checked against the others and what the file holds before anything is sized by
  // it: a merge or resume of an edited run.json must not allocate what a number claims.
  const auto fail = [&](const std::string& what) -> shard_run {
    throw input_error(where + ": \"shard\" is not what `eval --shard` writes (" + what + ")");
  };
  if (!j.is_object()) return fail("not an object");
  shard_run s;
  try {
    s.spec.index = j.at("index").get<std::size_t>();
    s.spec.count = j.at("count").get<std::size_t>();
    s.run_fingerprint = j.at("run_fingerprint").get<std::string>();
    s.run_examples = j.at("run_examples").get<std::size_t>();
    s.run_units = j.at("run_units").get<std::size_t>();
    if (s.spec.count == 0 || s.spec.count > max_shards)
      return fail("shard.count " + std::to_string(s.spec.count) + ": not 1 to " + std::to_string(max_shards));
    if (s.spec.index >= s.spec.count)
      return fail("shard.index " + std::to_string(s.spec.index) + ": not below count");
    if (s.run_units > s.run_examples)
      return fail("shard.run_units " + std::to_string(s.run_units) + ": more units than the run's " +
                  std::to_string(s.run_examples) + " examples (run_examples)");
    std::size_t examples = 0;
    for (const auto& u : j.at("units")) {
      if (!u.is_array() || u.size() != 3)
        return fail("a unit of shard.units is not [index, examples, digest]");
      unit next{u[0].get<std::size_t>(), u[1].get<std::size_t>(), u[2].get<std::string>()};
      const std::string name = "shard.units[" + std::to_string(s.units.size()) + "]";
      if (next.index >= s.run_units)
        return fail(name + ": unit " + std::to_string(next.index) + " beyond run_units " +
                    std::to_string(s.run_units));
      if (!s.units.empty() && next.index <= s.units.back().index)
        return fail(name + ": unit " + std::to_string(next.index) + " not after unit " +
                    std::to_string(s.units.back().index));
      if (next.examples == 0 || next.examples > s.run_examples - examples)
        return fail(name + ": " + std::to_string(next.examples) + " examples, not 1 to what run_examples " +
                    std::to_string(s.run_examples) + " leaves");
      examples += next.examples;
      s.units.push_back(std::move(next));
    }
    if (j.contains("database_hashes")) s.databases = database_hashes_from_json(j["database_hashes"], where);
  } catch (const nlohmann::json::exception& e) {
    return fail(e.what());
  }
  return s;
}

}  // namespace sqlmorph::core
