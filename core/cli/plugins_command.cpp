// `sqlmorph plugins`: every loaded component with its kind, version, file and options, and every
// refused library with the reason; `--markdown` prints the option tables of the plugin READMEs.

#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include <sqlmorph/backend.hpp>

#include "app/environment.hpp"
#include "backends/capabilities_json.hpp"
#include "cli/commands.hpp"
#include "cli/option_table_markdown.hpp"
#include "output/record_json.hpp"

namespace sqlmorph::core {
namespace {

// A backend's capabilities belong to an instance: one is made with the default options (it opens
// no connection). A backend whose options have no defaults says why it cannot be shown.
std::optional<backend_capabilities> capabilities_of(const component_registry& reg, const component_info& c,
                                                    std::string& problem) {
  try {
    return reg.create<backend>(component_spec(c.name))->capabilities();
  } catch (const std::exception& e) {
    problem = e.what();
    return std::nullopt;
  }
}

// `--markdown`: per library, the option table of every component that has options, markers
// included, ready to paste into the library's README (tests/integration keeps them equal).
void print_option_tables(const component_registry& reg) {
  for (const loaded_library& lib : reg.libraries()) {
    std::cout << "## " << lib.name << "\n";
    for (const component_info& c : lib.components) {
      if (!c.options.empty()) std::cout << "\n" << option_table_markdown(c);
    }
    std::cout << "\n";
  }
}

int run_plugins(const global_options& g, bool json, bool markdown) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  const component_registry& reg = env->registry();
  if (markdown) {
    print_option_tables(reg);
    return 0;
  }
  if (json) {
    nlohmann::ordered_json j;
    j["plugin_dirs"] = nlohmann::ordered_json::array();
    for (const auto& d : env->config().plugin_dirs) j["plugin_dirs"].push_back(d.string());
    j["components"] = nlohmann::ordered_json::array();
    for (const component_info* c : reg.list()) {
      nlohmann::ordered_json cj;
      cj["kind"] = c->kind;
      cj["name"] = c->name;
      cj["version"] = c->version;
      cj["description"] = c->description;
      cj["library"] = c->library;
      cj["file"] = c->file.string();
      cj["options"] = nlohmann::ordered_json::array();
      for (const option_decl& o : c->options) {
        cj["options"].push_back(
            {{"name", o.name},
             {"type", o.type},
             {"default", o.default_value ? nlohmann::ordered_json(*o.default_value) : nullptr},
             {"description", o.description},
             {"sweepable", o.sweepable}});
      }
      if (c->kind == backend::kind_name) {
        std::string problem;
        const auto caps = capabilities_of(reg, *c, problem);
        cj["capabilities"] = caps ? capabilities_json(*caps) : nlohmann::ordered_json({{"unknown", problem}});
      }
      j["components"].push_back(std::move(cj));
    }
    j["refused"] = nlohmann::ordered_json::array();
    for (const plugin_refusal& r : reg.refusals())
      j["refused"].push_back({{"file", r.file.string()}, {"reason", r.reason}});
    std::cout << dump_json(j, 2) << "\n";
    return 0;
  }
  std::cout << "plugin directories:";
  for (const auto& d : env->config().plugin_dirs) std::cout << " " << d.string();
  std::cout << "\n";
  for (const loaded_library& lib : reg.libraries()) {
    std::cout << "\n" << lib.name << " " << lib.version << "  (" << lib.file.string() << ")\n";
    for (const component_info& c : lib.components) {
      std::cout << "  " << c.kind << " " << c.name << " " << c.version << " — " << c.description << "\n";
      if (c.kind == backend::kind_name) {
        std::string problem;
        const auto caps = capabilities_of(reg, c, problem);
        std::cout << "      capabilities: " << (caps ? capabilities_text(*caps) : "unknown (" + problem + ")")
                  << "\n";
      }
      for (const option_decl& o : c.options) {
        std::cout << "      " << o.name << " (" << o.type << (o.sweepable ? ", sweepable" : "")
                  << ", default " << (o.default_value ? *o.default_value : std::string("required"))
                  << "): " << o.description << "\n";
      }
    }
  }
  if (!reg.refusals().empty()) {
    std::cout << "\nrefused libraries:\n";
    for (const plugin_refusal& r : reg.refusals())
      std::cout << "  " << r.file.string() << ": " << r.reason << "\n";
  }
  return 0;
}

}  // namespace

void register_plugins_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "plugins", "List plugin components (kind, version, file, options) and refused libraries");
  cmd->add_flag("--json", *json, "print JSON");
  cmd->add_flag("--markdown", *markdown,
                "print each library's option tables as its README shows them (between "
                "<!-- options: KIND NAME --> markers)")
      ->excludes("--json");
  cmd->callback([&g, &exit_code, json, markdown] { exit_code = run_plugins(g, *json, *markdown); });
}

}  // namespace sqlmorph::core
