// `sqlmorph merge SHARD_DIR... --out DIR`: the shards of an `eval --shard K/N` run joined into the
// single-machine run (runner/run_merge.hpp).

#include <iostream>

#include "cli/commands.hpp"
#include "output/official_tables.hpp"
#include "output/record_json.hpp"
#include "runner/run_merge.hpp"

namespace sqlmorph::core {
namespace {

struct merge_options {
  std::vector<std::string> shards;
  std::string out;
  bool overwrite = false;
  bool json = false;
};

int run_merge(const global_options& g, const merge_options& o) {
  apply_logging(g);
  std::vector<std::filesystem::path> dirs(o.shards.begin(), o.shards.end());
  const merge_outcome merged = merge_shards(dirs, o.out, o.overwrite);
  if (o.json) {
    std::cout << dump_json(merged.summary.to_json(merged.examples, merged.wall_seconds), 2) << "\n";
    return 0;
  }
  std::cout << merged.summary.to_table();
  const auto systems = merged.summary.systems();
  if (systems.size() > 1) std::cout << "\n" << merged.summary.systems_table();
  std::cout << official_tables_text(merged.summary);
  const std::filesystem::path out(o.out);
  std::printf("\n%zu examples (%zu units) from %zu shards\nresults in %s, summary in %s, run in %s\n",
              merged.examples, merged.units, merged.shards, (out / "results.jsonl").c_str(),
              (out / "summary.json").c_str(), (out / "run.json").c_str());
  return 0;
}

}  // namespace

void register_merge_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<merge_options>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "Join the --out folders of the N shards of an `eval --shard K/N` run into the whole run");
  cmd->add_option("shards", options->shards, "the shard runs' --out folders")->required();
  cmd->add_option("--out", options->out, "folder for the merged results.jsonl, summary.json and run.json")
      ->required();
  cmd->add_flag("--overwrite", options->overwrite, "replace the output of an earlier merge in --out");
  cmd->add_flag("--json", options->json, "print summary.json instead of tables");
  cmd->callback([&g, &exit_code, options] { exit_code = run_merge(g, *options); });
}

}  // namespace sqlmorph::core
