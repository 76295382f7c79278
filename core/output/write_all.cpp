#include "output/write_all.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "errors.hpp"

namespace sqlmorph::core {

void write_all(int fd, const std::filesystem::path& file, std::string_view text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw usage_error("writing " + file.string() + " failed: " + std::strerror(errno));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace sqlmorph::core
