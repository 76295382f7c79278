#include "cli/number_checks.hpp"

#include <charconv>
#include <cmath>

#include "errors.hpp"

namespace sqlmorph::core {

CLI::Option* checked_by(CLI::Option* option, std::function<void(double, const std::string&)> check) {
  const std::string name = option->get_name();
  return option->transform(CLI::Validator(
      [name, check](std::string& text) {
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
          throw usage_error(name + " must be a number, not '" + text + "'");
        check(value, name);
        if (value == std::floor(value) && std::fabs(value) < 9.2e18)
          text = std::to_string(static_cast<long long>(value));
        return std::string();
      },
      ""));
}

CLI::Option* whole_number_from(CLI::Option* option, std::uint64_t min, std::uint64_t max) {
  const std::string name = option->get_name();
  return option->transform(CLI::Validator(
      [name, min, max](std::string& text) {
        std::uint64_t value = 0;
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (!digits || ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
          throw usage_error(name + " must be a whole number from " + std::to_string(min) + " to " +
                            std::to_string(max) + ", not " + text);
        text = std::to_string(value);
        return std::string();
      },
      ""));
}

}  // namespace sqlmorph::core
