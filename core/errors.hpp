#pragma once
// Error types of the core. Each carries a message that names what is wrong and where.

#include <stdexcept>
#include <string>

namespace sqlmorph::core {

/// Bad configuration, bad technique definition, bad command-line usage or unreadable input:
/// the command stops with exit code 2 and this message.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A usage_error about an input file (cases, gold, predictions, questions) rather than the options:
/// the CLI treats it alike (exit code 2); the Python module raises it as sqlmorph.InputError.
class input_error : public usage_error {
 public:
  using usage_error::usage_error;
};

/// An error raised by a user script (Lua syntax, runtime error, exceeded limit): the message names
/// the script file and line; the traceback shows how it got there. During an evaluation it marks
/// the example `script_error` (or aborts the run, as configured).
class script_error : public std::runtime_error {
 public:
  script_error(std::string message, std::string traceback)
      : std::runtime_error(message), message_(std::move(message)), traceback_(std::move(traceback)) {}
  const std::string& message() const noexcept { return message_; }
  const std::string& traceback() const noexcept { return traceback_; }
  /// Message and traceback, for people.
  std::string full() const { return traceback_.empty() ? message_ : message_ + "\n" + traceback_; }

 private:
  std::string message_;
  std::string traceback_;
};

}  // namespace sqlmorph::core
