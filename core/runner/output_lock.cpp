#include "runner/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include "errors.hpp"
#include "runner/run_manifest.hpp"

namespace sqlmorph::core {
namespace {

// Who holds the lock of `fd` (what its run.lock says), for the message.
std::string holder_of(int fd) {
  char holder[512] = {0};
  const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
  std::string who = n > 0 ? std::string(holder, static_cast<std::size_t>(n)) : std::string("unknown");
  while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
  return who;
}

}  // namespace

output_lock::output_lock(const std::filesystem::path& dir) {
  const auto file = dir / "run.lock";
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw usage_error("cannot create " + file.string() + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string who = holder_of(fd_);
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK) {
      throw usage_error("another sqlmorph run is writing to " + dir.string() + " (" + who +
                        "); wait for it to end, or give this run another --out");
    }
    throw usage_error("cannot lock " + file.string() + ": " + std::strerror(err));
  }
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  const std::string text = "pid " + std::to_string(::getpid()) + " on " + host + ", since " +
                           iso_time(std::chrono::system_clock::now()) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t written = ::pwrite(fd_, text.data(), text.size(), 0);
  }
}

output_lock::~output_lock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

output_read_lock::output_read_lock(const std::filesystem::path& dir) {
  const auto file = dir / "run.lock";
  fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // (a FIFO would block)
  if (fd_ < 0) return;  // no run ever locked it (or it is not readable: nothing to respect)
  if (::flock(fd_, LOCK_SH | LOCK_NB) != 0) {
    const int err = errno;
    const std::string who = holder_of(fd_);
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK)
      throw usage_error("a sqlmorph run is writing to " + dir.string() + " (" + who +
                        "); wait for it to end before reading it");
    throw usage_error("cannot lock " + file.string() + ": " + std::strerror(err));
  }
}

output_read_lock::~output_read_lock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace sqlmorph::core
