// `sqlmorph techniques`: the techniques a run can use and the components each is built from.

#include <iostream>

#include "app/environment.hpp"
#include "cli/commands.hpp"

namespace sqlmorph::core {
namespace {

int run_techniques(const global_options& g) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  for (const std::string& name : env->techniques().names()) {
    const technique_spec* s = env->techniques().find(name);
    std::cout << name << "  (" << s->origin << ")\n";
    if (!s->description.empty()) std::cout << "    " << s->description << "\n";
    std::string rewriters;
    for (const component_spec& r : s->rewriters) rewriters += (rewriters.empty() ? "" : ", ") + describe(r);
    if (!rewriters.empty()) std::cout << "    rewrites: " << rewriters << "\n";
    std::string normalizers;
    for (const component_spec& n : s->normalizers)
      normalizers += (normalizers.empty() ? "" : ", ") + describe(n);
    if (!normalizers.empty()) std::cout << "    normalizers: " << normalizers << "\n";
    if (s->databases == database_scope::variants)
      std::cout
          << "    databases: every *.sqlite of the example's folder (correct only if correct on each)\n";
    if (s->candidates) std::cout << "    candidates: " << describe(*s->candidates) << "\n";
    if (s->opt_in) std::cout << "    opt-in: runs only when named (not part of \"all\")\n";
    std::cout << "    columns: " << describe(s->columns) << "  rows: " << describe(s->rows)
              << "  scorer: " << describe(s->scorer) << "\n";
  }
  return 0;
}

}  // namespace

void register_techniques_command(CLI::App& app, const global_options& g, int& exit_code) {
  CLI::App* cmd =
      app.add_subcommand("techniques", "List the techniques and the components they are assembled from");
  cmd->callback([&g, &exit_code] { exit_code = run_techniques(g); });
}

}  // namespace sqlmorph::core
