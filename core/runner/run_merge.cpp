#include "runner/run_merge.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "datasets/json_input.hpp"
#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "eval/sql_features.hpp"
#include "output/atomic_file.hpp"
#include "output/pretty_json.hpp"
#include "output/record_json.hpp"
#include "runner/output_lock.hpp"
#include "runner/run_manifest.hpp"
#include "runner/shard_plan.hpp"

namespace sqlmorph::core {
namespace {

// One shard folder, read.
struct shard_folder {
  std::filesystem::path dir;
  nlohmann::json manifest;
  shard_run shard;
  std::string results;                  // results.jsonl
  std::optional<std::string> examples;  // examples.jsonl, when the shard wrote one
};

// Where one unit's lines are: a shard and the byte range of its lines.
struct unit_lines {
  std::size_t shard = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string first_id;
  unit_check check;
};

shard_folder read_shard(const std::filesystem::path& dir) {
  shard_folder f;
  f.dir = dir;
  const output_read_lock reading(dir);  // no run writes there while its files are read
  const auto manifest_file = dir / "run.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(manifest_file, ec))
    throw input_error(manifest_file.string() + ": no run.json (is " + dir.string() +
                      " the --out of a shard run?)");
  f.manifest = parse_input_json(read_file(manifest_file), manifest_file.string());
  if (!f.manifest.is_object() || !f.manifest.contains("shard"))
    throw input_error(manifest_file.string() + ": not a shard run (made without eval --shard K/N)");
  f.shard = shard_run::from_json(f.manifest["shard"], manifest_file.string());
  const auto results_file = dir / "results.jsonl";
  if (std::filesystem::exists(results_file, ec)) f.results = read_file(results_file);
  const auto examples_file = dir / "examples.jsonl";
  if (std::filesystem::exists(examples_file, ec)) f.examples = read_file(examples_file);
  return f;
}

std::string shard_name(const shard_run& s) {
  return std::to_string(s.spec.index) + "/" + std::to_string(s.spec.count);
}

std::size_t lines_per_example(const nlohmann::json& manifest) {
  std::size_t n = 0;
  if (manifest.contains("techniques") && manifest["techniques"].is_array())
    n += manifest["techniques"].size();
  if (manifest.contains("judges") && manifest["judges"].is_array()) n += manifest["judges"].size();
  return n;
}

// The complete units at the start of a shard's results.jsonl, each checked against its digest.
// Stops at the first unit that is cut short or does not match (what follows it cannot be placed).
void read_units(const shard_folder& f, std::size_t shard_pos, std::map<std::size_t, unit_lines>& found,
                std::vector<std::string>& problems) {
  const std::size_t per_example = lines_per_example(f.manifest);
  const std::vector<unit_check> checks = read_unit_checks(f.dir / "results.jsonl");
  std::size_t pos = 0;
  std::size_t k = 0;  // the unit's position in the shard
  for (const shard_run::unit& u : f.shard.units) {
    const std::size_t begin = pos;
    std::vector<record_key> keys;
    std::string first_id;
    // More lines than the file has bytes: cut short (and the product cannot overflow).
    bool complete = per_example == 0 || u.examples <= f.results.size() / per_example;
    for (std::size_t k = 0; complete && k < u.examples * per_example; ++k) {
      const std::size_t end = f.results.find('\n', pos);
      if (end == std::string::npos) {
        complete = false;
        break;
      }
      const auto j = nlohmann::json::parse(f.results.begin() + static_cast<long>(pos),
                                           f.results.begin() + static_cast<long>(end), nullptr, false);
      record r;
      if (j.is_discarded() || !record_from_json(j, r)) {
        problems.push_back((f.dir / "results.jsonl").string() + ": a line of unit " +
                           std::to_string(u.index) + " is not a record");
        return;
      }
      if (first_id.empty()) first_id = r.id;
      keys.push_back({r.id, r.system, r.technique, r.penalize_extra_pred_cols});
      pos = end + 1;
    }
    if (!complete) return;           // an interrupted shard: the units from here on are missing
    if (k >= checks.size()) return;  // its checksum never reached the disk: missing, like a cut unit
    if (!checks[k].matches(std::string_view(f.results).substr(begin, pos - begin))) {
      problems.push_back((f.dir / "results.jsonl").string() + ": the lines of unit " +
                         std::to_string(u.index) + " (example " + first_id +
                         ") differ from what its shard run wrote (edited?)");
      return;
    }
    ++k;
    if (unit_keys_digest(keys) != u.keys_digest) {
      problems.push_back((f.dir / "results.jsonl").string() + ": the lines of unit " +
                         std::to_string(u.index) + " (example " + first_id +
                         ") are not the ones its shard run planned");
      return;
    }
    const auto [it, added] =
        found.try_emplace(u.index, unit_lines{shard_pos, begin, pos, first_id, checks[k - 1]});
    if (!added) {
      problems.push_back("unit " + std::to_string(u.index) + " (example " + first_id +
                         ") is in two shards: " + std::to_string(it->second.shard) + " and " +
                         std::to_string(shard_pos) + " of the folders given");
    }
  }
}

// The byte range of each found unit's lines in its shard's examples.jsonl; empty when a shard has
// no examples.jsonl or it does not hold every unit its results.jsonl holds (then the merged run has
// none either, and its summary no by_feature).
std::vector<std::pair<std::size_t, std::size_t>> example_ranges(
    const std::vector<shard_folder>& shards, const std::map<std::size_t, unit_lines>& found) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges(found.size());
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const shard_folder& f = shards[i];
    if (!f.examples) return {};
    std::size_t pos = 0;
    for (const shard_run::unit& u : f.shard.units) {
      const auto it = found.find(u.index);
      if (it == found.end() || it->second.shard != i) break;  // the shard's units end here
      const std::size_t begin = pos;
      for (std::size_t k = 0; k < u.examples; ++k) {
        const std::size_t end = f.examples->find('\n', pos);
        if (end == std::string::npos) return {};
        pos = end + 1;
      }
      ranges[u.index] = {begin, pos};
    }
  }
  return ranges;
}

double number_or_zero(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

// Every shard 0..N-1 given once: what is not, as problems.
std::vector<std::string> shard_coverage_problems(const std::vector<shard_folder>& shards) {
  std::vector<std::string> problems;
  std::map<std::size_t, std::string> shard_dir_of;
  for (const shard_folder& f : shards) {
    const auto [it, added] = shard_dir_of.try_emplace(f.shard.spec.index, f.dir.string());
    if (!added)
      problems.push_back("shard " + shard_name(f.shard) + " given twice: " + it->second + " and " +
                         f.dir.string());
  }
  const std::size_t count = shards.front().shard.spec.count;  // at most max_shards (from_json)
  for (std::size_t k = 0; k < count; ++k) {
    if (!shard_dir_of.count(k))
      problems.push_back("shard " + std::to_string(k) + "/" + std::to_string(count) + " not given");
  }
  return problems;
}

// With every shard given once, the run's unit and example counts must be what the shards list:
// the numbers every shard's run.json repeats are checked against what the files hold.
void check_unit_counts(const std::vector<shard_folder>& shards) {
  const shard_run& run = shards.front().shard;
  std::size_t units = 0;
  std::size_t examples = 0;
  bool more_examples = false;  // than run_examples (counting stops there: no overflow)
  for (const shard_folder& f : shards) {
    units += f.shard.units.size();  // each shard's below run_units (from_json), at most max_shards shards
    for (const auto& u : f.shard.units) {
      more_examples = more_examples || u.examples > run.run_examples - examples;
      if (!more_examples) examples += u.examples;
    }
  }
  const auto refuse = [&](const char* field, std::size_t said, const std::string& listed, const char* what) {
    throw input_error((shards.front().dir / "run.json").string() + ": shard." + field + " says " +
                      std::to_string(said) + " " + what + ", but the " + std::to_string(shards.size()) +
                      " shards' run.json list " + listed + " (edited?)");
  };
  if (units != run.run_units) refuse("run_units", run.run_units, std::to_string(units), "units");
  if (more_examples || examples != run.run_examples)
    refuse("run_examples", run.run_examples, more_examples ? "more" : std::to_string(examples), "examples");
}

// "N of M units missing", with the first 50 named with their shard (and so the task to rerun with
// --resume). Counts only: the run may claim more units than the shards given list.
std::string missing_units_text(const std::vector<shard_folder>& shards,
                               const std::map<std::size_t, unit_lines>& found) {
  const shard_run& first = shards.front().shard;
  std::map<std::size_t, std::size_t> planned_in;  // unit -> shard index
  for (const shard_folder& f : shards)
    for (const auto& u : f.shard.units) planned_in.emplace(u.index, f.shard.spec.index);
  const std::size_t missing = first.run_units - found.size();
  std::string text = std::to_string(missing) + " of " + std::to_string(first.run_units) +
                     " units missing (rerun their shards with --resume):";
  std::size_t shown = 0;
  for (std::size_t u = 0; u < first.run_units && shown < 50; ++u) {
    if (found.count(u)) continue;
    const auto it = planned_in.find(u);
    text += "\n    unit " + std::to_string(u) +
            (it == planned_in.end()
                 ? std::string(" (its shard was not given)")
                 : " (shard " + std::to_string(it->second) + "/" + std::to_string(first.spec.count) + ")");
    ++shown;
  }
  if (shown < missing) text += "\n    ... and " + std::to_string(missing - shown) + " more";
  return text;
}

}  // namespace

merge_outcome merge_shards(const std::vector<std::filesystem::path>& shard_dirs,
                           const std::filesystem::path& out, bool overwrite) {
  if (shard_dirs.empty()) throw usage_error("merge needs the shard folders");
  std::vector<shard_folder> shards;
  for (const auto& dir : shard_dirs) shards.push_back(read_shard(dir));

  // Every shard of the same run.
  const shard_run& first = shards.front().shard;
  for (const shard_folder& f : shards) {
    const shard_run& s = f.shard;
    if (s.run_fingerprint != first.run_fingerprint || s.spec.count != first.spec.count ||
        s.run_units != first.run_units || s.run_examples != first.run_examples) {
      const std::string database = changed_database(first.databases, s.databases);
      if (!database.empty())
        throw input_error(shards.front().dir.string() + " (shard " + shard_name(first) + ") and " +
                          f.dir.string() + " (shard " + shard_name(s) +
                          ") were computed on different contents of a database: " + database +
                          "; rerun the shards on the same copy of the databases");
      throw input_error(f.dir.string() + " is shard " + shard_name(s) + " of another run than " +
                        shards.front().dir.string() + " (run fingerprint " + s.run_fingerprint + " vs " +
                        first.run_fingerprint + ")");
    }
  }
  std::vector<std::string> problems = shard_coverage_problems(shards);
  if (problems.empty()) check_unit_counts(shards);

  std::map<std::size_t, unit_lines> found;  // unit index -> its lines
  for (std::size_t i = 0; i < shards.size(); ++i) read_units(shards[i], i, found, problems);
  const std::size_t missing = first.run_units - found.size();
  if (missing != 0 || !problems.empty()) {
    std::string message =
        "cannot merge " + std::to_string(shards.size()) + " shard folders into " + out.string();
    for (const auto& p : problems) message += "\n  " + p;
    if (missing != 0) message += "\n  " + missing_units_text(shards, found);
    throw input_error(message);
  }

  // The output folder.
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw usage_error("cannot create output directory " + out.string() + ": " + ec.message());
  const output_lock writing(out);  // as a run holds it: never two writers, whichever command
  for (const char* name :
       {"results.jsonl", "results.jsonl.check", "examples.jsonl", "summary.json", "run.json"}) {
    if (!overwrite && std::filesystem::exists(out / name, ec))
      throw usage_error(out.string() + " already holds " + name + "; pass --overwrite to replace it");
  }

  merge_outcome result;
  result.examples = first.run_examples;
  result.units = first.run_units;
  result.shards = shards.size();
  std::string results;
  std::string checks;  // results.jsonl.check: the merged folder resumes like any run's
  std::string examples;
  const auto ranges = example_ranges(shards, found);
  const std::size_t per_example = std::max<std::size_t>(1, lines_per_example(shards.front().manifest));
  for (const auto& [index, u] : found) {
    checks += std::to_string(u.check.bytes) + "\t" + u.check.hash + "\n";
    const std::string& text = shards[u.shard].results;
    results.append(text, u.begin, u.end - u.begin);
    // The unit's examples, for the facts of its records (as the run that wrote them had them).
    std::vector<std::pair<std::string, std::uint32_t>> facts;
    if (!ranges.empty()) {
      const std::string& lines = *shards[u.shard].examples;
      examples.append(lines, ranges[index].first, ranges[index].second - ranges[index].first);
      for (std::size_t pos = ranges[index].first; pos < ranges[index].second;) {
        const std::size_t end = lines.find('\n', pos);
        const auto j = nlohmann::json::parse(lines.begin() + static_cast<long>(pos),
                                             lines.begin() + static_cast<long>(end), nullptr, false);
        const char* key = j.is_object() && j.contains("gold_as_given") ? "gold_as_given" : "gold";
        const std::string gold =
            j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
        facts.emplace_back(gold, feature_mask(features_of(gold)));
        pos = end + 1;
      }
    }
    std::size_t pos = u.begin;
    for (std::size_t k = 0; pos < u.end; ++k) {
      const std::size_t end = text.find('\n', pos);
      record r;
      record_from_json(
          nlohmann::json::parse(text.begin() + static_cast<long>(pos), text.begin() + static_cast<long>(end)),
          r);
      if (facts.empty()) {
        result.summary.add(r);
      } else {
        const auto& [gold, mask] = facts[std::min(k / per_example, facts.size() - 1)];
        const example_facts f{mask, gold};
        result.summary.add(r, &f);
      }
      pos = end + 1;
    }
  }
  for (const shard_folder& f : shards)
    result.wall_seconds = std::max(result.wall_seconds, number_or_zero(f.manifest, "wall_seconds"));

  // run.json: shard 0's, as the whole run (fingerprint, examples, statistics summed over the shards).
  const shard_folder* base = &shards.front();
  for (const shard_folder& f : shards)
    if (f.shard.spec.index == 0) base = &f;
  nlohmann::ordered_json run = nlohmann::ordered_json::parse(base->manifest.dump());
  run["status"] = "complete";
  run["fingerprint"] = first.run_fingerprint;
  run["examples"] = first.run_examples;
  run["database_hashes"] = database_hashes_json(first.databases);
  run.erase("shard");
  std::string started, finished;
  nlohmann::ordered_json statistics = nlohmann::ordered_json::object();
  nlohmann::ordered_json merged_from = nlohmann::ordered_json::array();
  std::vector<const shard_folder*> ordered;
  for (const shard_folder& f : shards) ordered.push_back(&f);
  std::sort(ordered.begin(), ordered.end(), [](const shard_folder* a, const shard_folder* b) {
    return a->shard.spec.index < b->shard.spec.index;
  });
  for (const shard_folder* f : ordered) {
    const auto& m = f->manifest;
    const std::string s = m.value("started", std::string());
    const std::string e =
        m.contains("finished") && m["finished"].is_string() ? m["finished"].get<std::string>() : "";
    if (!s.empty() && (started.empty() || s < started)) started = s;
    if (e > finished) finished = e;
    if (m.contains("statistics") && m["statistics"].is_object()) {
      for (const auto& [key, value] : m["statistics"].items()) {
        if (!value.is_number_unsigned()) continue;
        statistics[key] = statistics.value(key, std::uint64_t{0}) + value.get<std::uint64_t>();
      }
    }
    merged_from.push_back({{"folder", f->dir.string()},
                           {"shard", shard_name(f->shard)},
                           {"fingerprint", m.value("fingerprint", std::string())},
                           {"host", m.contains("machine") ? m["machine"].value("host", std::string()) : ""},
                           {"status", m.value("status", std::string())},
                           {"wall_seconds", number_or_zero(m, "wall_seconds")}});
  }
  statistics["units"] = first.run_units;
  statistics["written_units"] = first.run_units;
  run["statistics"] = statistics;
  run["started"] = started;
  run["finished"] = finished;
  run["wall_seconds"] = result.wall_seconds;
  run["merged_from"] = merged_from;

  write_file_atomically(out / "results.jsonl", results);
  if (!ranges.empty())
    write_file_atomically(out / "examples.jsonl", examples);
  else if (std::filesystem::exists(out / "examples.jsonl", ec))
    std::filesystem::remove(out / "examples.jsonl", ec);  // an earlier merge's, replaced (--overwrite)
  write_file_atomically(checks_file(out / "results.jsonl"), checks);
  write_file_atomically(out / "summary.json",
                        pretty_json(result.summary.to_json(result.examples, result.wall_seconds), 2) + "\n");
  write_file_atomically(out / "run.json", dump_json(run, 2) + "\n");
  return result;
}

}  // namespace sqlmorph::core
