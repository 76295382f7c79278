// `sqlmorph run SCRIPT.lua [args]`: an experiment written in Lua.

#include "app/environment.hpp"
#include "cli/commands.hpp"
#include "runner/evaluation_runner.hpp"

namespace sqlmorph::core {
namespace {

struct run_script_options {
  std::string script;
  std::vector<std::string> args;
  std::optional<std::string> embedding_cache;
  bool no_embedding_cache = false;
  bool no_preflight = false;
};

int run_script(const global_options& g, const run_script_options& o) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  env->use_embedding_cache(o.embedding_cache, o.no_embedding_cache, env->config().run.cache_dir);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(o.script, ec))
    throw usage_error("script " + o.script + " does not exist");
  try {
    env->scripts().run_experiment(o.script, o.args, !o.no_preflight);
  } catch (const script_error& e) {
    std::fprintf(stderr, "sqlmorph: script error: %s\n", e.full().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

void register_run_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<run_script_options>();
  CLI::App* cmd = app.add_subcommand("run", "Run an experiment written in Lua (see docs/lua-api.md)");
  add_embedding_cache_options(*cmd, options->embedding_cache, options->no_embedding_cache);
  add_preflight_option(*cmd, options->no_preflight);
  cmd->add_option("script", options->script, "the Lua script")->required();
  cmd->add_option("args", options->args, "arguments for the script (its `arg` table and `...`)");
  cmd->prefix_command();
  cmd->callback([&g, &exit_code, options, cmd] {
    // What the parser could not place (an option sqlmorph does not know) is refused, not dropped.
    if (const auto rest = cmd->remaining(); !rest.empty()) {
      std::string listed;
      for (const std::string& a : rest) listed += (listed.empty() ? "" : " ") + a;
      throw usage_error("run: arguments neither sqlmorph nor the script can take: " + listed +
                        " (a script gets the arguments after it that do not start with '-')");
    }
    exit_code = run_script(g, *options);
  });
}

}  // namespace sqlmorph::core
