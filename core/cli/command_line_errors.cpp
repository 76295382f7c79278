#include "cli/command_line_errors.hpp"

#include <ostream>

#include "nearest_name.hpp"

namespace sqlmorph::core {
namespace {

// The commands given: the program, then each subcommand parsed ("sqlmorph", "suite", "build").
std::vector<const CLI::App*> parsed_chain(const CLI::App& app) {
  std::vector<const CLI::App*> chain = {&app};
  for (;;) {
    const auto subs = chain.back()->get_subcommands();
    if (subs.empty()) return chain;
    chain.push_back(subs.front());
  }
}

std::string command_path(const std::vector<const CLI::App*>& chain, std::size_t last) {
  std::string path;
  for (std::size_t i = 0; i <= last; ++i) path += (i == 0 ? "" : " ") + chain[i]->get_name();
  return path;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

// "--techniqes=all" -> "techniqes": what an option argument names.
std::string option_word(const std::string& arg) {
  const std::size_t start = arg.find_first_not_of('-');
  if (start == std::string::npos) return {};
  const std::size_t equals = arg.find('=', start);
  return arg.substr(start, equals == std::string::npos ? std::string::npos : equals - start);
}

// " (did you mean --techniques?)" for the mistyped options among `args`, or "".
std::string option_suggestions(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> long_names;
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& name : opt->get_lnames()) long_names.push_back(name);
  std::vector<std::string> meant;
  std::vector<std::string> typed;
  for (const std::string& arg : args) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    if (const auto near = nearest_name(option_word(arg), long_names)) {
      meant.push_back("--" + *near);
      typed.push_back(arg);
    }
  }
  if (meant.empty()) return "";
  if (meant.size() == 1) return " (did you mean " + meant.front() + "?)";
  std::vector<std::string> pairs;
  for (std::size_t i = 0; i < meant.size(); ++i) pairs.push_back(meant[i] + " for " + typed[i]);
  return " (did you mean " + joined(pairs, ", ") + "?)";
}

}  // namespace

int report_command_line_error(const CLI::App& app, const CLI::ParseError& e, std::ostream& err) {
  const std::vector<const CLI::App*> chain = parsed_chain(app);
  const CLI::App& last = *chain.back();
  std::string message;
  std::size_t help_of = chain.size() - 1;

  // A command was needed: a word given instead is a mistyped command.
  std::string word;
  for (const std::string& arg : last.remaining())
    if (word.empty() && !arg.empty() && arg[0] != '-') word = arg;
  const std::vector<std::string> commands = command_names(last);
  const bool command_missing = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr &&
                               last.get_require_subcommand_min() > 0 && !commands.empty();
  if (command_missing && !word.empty()) {
    const auto near = nearest_name(word, commands);
    message = "'" + word + "' is not a command of " + command_path(chain, help_of) +
              (near ? " (did you mean " + *near + "?)" : "") + "; the commands: " + joined(commands, ", ");
  }
  // Arguments no command took, reported for the first command that has some.
  for (std::size_t i = 0; message.empty() && i < chain.size(); ++i) {
    const std::vector<std::string> rest = chain[i]->remaining();
    if (rest.empty()) continue;
    help_of = i;
    message = std::string(rest.size() > 1 ? "unrecognized arguments" : "unrecognized argument") + " to " +
              command_path(chain, i) + ": " + joined(rest, " ") + option_suggestions(*chain[i], rest);
  }
  if (message.empty() && command_missing)
    message = command_path(chain, help_of) + " needs a command: " + joined(commands, ", ");
  if (message.empty()) message = e.what();
  err << "sqlmorph: error: " << message << "\n"
      << "(`" << command_path(chain, help_of) << " --help` shows the usage)\n";
  return 2;
}

}  // namespace sqlmorph::core
