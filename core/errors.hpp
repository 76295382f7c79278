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

}  // namespace sqlmorph::core
