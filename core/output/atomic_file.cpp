#include "output/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "errors.hpp"
#include "output/write_all.hpp"

namespace sqlmorph::core {
namespace {

std::string system_reason(int err) {
  return std::strerror(err);
}

}  // namespace

void write_file_atomically(const std::filesystem::path& file, std::string_view text) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw usage_error("cannot write " + file.string() + ": it exists and is not a regular file");
  // Unique per process and call, in the target's folder (rename must not cross filesystems).
  static std::atomic<unsigned> counter{0};
  const std::string tmp =
      file.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw usage_error("cannot write " + file.string() + ": " + system_reason(errno));
  const auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw usage_error("cannot write " + file.string() + ": " + system_reason(err));
  };
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) fail(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw usage_error("cannot write " + file.string() + ": " + system_reason(err));
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw usage_error("cannot write " + file.string() + ": " + system_reason(err));
  }
}

void write_output_file(const std::filesystem::path& file, std::string_view text) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);  // follows links: /dev/stdout's target
  if (!ec && std::filesystem::is_directory(status))
    throw usage_error("cannot write " + file.string() + ": it is a folder");
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw usage_error("cannot write " + file.string() + ": " + system_reason(errno));
    try {
      write_all(fd, file, text);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw usage_error("cannot write " + file.string() + ": " + system_reason(errno));
    return;
  }
  std::filesystem::path target = file;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(file, ec))) {
    const auto resolved = std::filesystem::weakly_canonical(file, ec);
    if (!ec) target = resolved;
  }
  write_file_atomically(target, text);
}

}  // namespace sqlmorph::core
