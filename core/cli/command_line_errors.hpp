#pragma once
// What sqlmorph prints when CLI11 refuses the command line: "sqlmorph: error: ..." and, for a
// mistyped option or command, the one probably meant (the nearest of that command's, when close).

#include <iosfwd>

#include <CLI/CLI.hpp>

namespace sqlmorph::core {

/// Writes the error `e` that parsing `app`'s command line raised to `err`: an unknown command
/// with the nearest command, unknown arguments with the nearest options of the command they were
/// given to (reported before anything else: a mistyped option is often why a required one is
/// missing), else CLI11's message; then where the help is. Returns the exit code (2).
int report_command_line_error(const CLI::App& app, const CLI::ParseError& e, std::ostream& err);

}  // namespace sqlmorph::core
