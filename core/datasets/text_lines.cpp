#include "datasets/text_lines.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {

constexpr std::size_t chunk_bytes = 1 << 16;

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISFIFO(mode)) return "a pipe";
  return "not a regular file";
}

std::string too_large(const std::string& name, const input_limits& limits) {
  return name + ": larger than " + std::to_string(limits.max_file_bytes) +
         " bytes, the most sqlmorph reads from one input file";
}

// Opens `file` for reading: a regular file, or (when `pipes` is true) a pipe. The type is checked
// before opening (opening a FIFO without a writer would block) and again on the open descriptor.
int open_input(const std::filesystem::path& file, bool pipes) {
  const std::string name = file.string();
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) throw usage_error(name + ": cannot be read: " + std::strerror(errno));
  const auto accepted = [pipes](mode_t mode) { return S_ISREG(mode) || (pipes && S_ISFIFO(mode)); };
  const auto refuse = [&](mode_t mode) {
    return usage_error(name + ": is " + kind_of(mode) + ", not a file sqlmorph reads" +
                       (S_ISFIFO(mode) ? " (this input is read as a whole: give a regular file)" : ""));
  };
  if (!accepted(st.st_mode)) throw refuse(st.st_mode);
  // A pipe is opened as `cat` opens it (waiting for its writer); a file with O_NONBLOCK, so that a
  // FIFO put in its place after the check is refused below instead of waited for.
  const bool fifo = S_ISFIFO(st.st_mode);
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | (fifo ? 0 : O_NONBLOCK));
  if (fd < 0) throw usage_error(name + ": cannot be read: " + std::strerror(errno));
  if (::fstat(fd, &st) != 0 || !accepted(st.st_mode)) {
    ::close(fd);
    throw refuse(st.st_mode);
  }
  return fd;
}

}  // namespace

line_reader::line_reader(std::string name, input_limits limits) : name_(std::move(name)), limits_(limits) {}

line_reader::line_reader(const std::filesystem::path& file, input_limits limits)
    : line_reader(file.string(), limits) {
  fd_ = open_input(file, true);
}

line_reader line_reader::from_text(std::string_view text, std::string name, input_limits limits) {
  line_reader r(std::move(name), limits);
  if (text.size() > limits.max_file_bytes) throw usage_error(too_large(r.name_, limits));
  r.buffer_.assign(text);
  r.total_ = text.size();
  r.end_ = true;
  return r;
}

line_reader::line_reader(line_reader&& other) noexcept
    : name_(std::move(other.name_)),
      limits_(other.limits_),
      fd_(other.fd_),
      end_(other.end_),
      buffer_(std::move(other.buffer_)),
      start_(other.start_),
      total_(other.total_),
      line_number_(other.line_number_) {
  other.fd_ = -1;
}

line_reader::~line_reader() {
  if (fd_ >= 0) ::close(fd_);
}

bool line_reader::fill_() {
  if (end_) return false;
  if (start_ > 0) {  // keep only the unfinished line
    buffer_.erase(0, start_);
    start_ = 0;
  }
  const std::size_t old = buffer_.size();
  buffer_.resize(old + chunk_bytes);
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.data() + old, chunk_bytes);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    const int e = errno;
    buffer_.resize(old);
    throw usage_error(name_ + ": cannot be read: " + std::strerror(e));
  }
  buffer_.resize(old + static_cast<std::size_t>(n));
  if (n == 0) {
    end_ = true;
    return false;
  }
  total_ += static_cast<std::uint64_t>(n);
  if (total_ > limits_.max_file_bytes) throw usage_error(too_large(name_, limits_));
  return true;
}

bool line_reader::next_raw(std::string& line) {
  const auto check = [&](std::size_t content) {
    if (content > limits_.max_line_bytes) {
      throw usage_error(name_ + ":" + std::to_string(line_number_ + 1) + ": line longer than " +
                        std::to_string(limits_.max_line_bytes) + " bytes");
    }
  };
  std::size_t scanned = 0;  // bytes after start_ known to hold no newline
  for (;;) {
    const std::size_t newline = buffer_.find('\n', start_ + scanned);
    if (newline != std::string::npos) {
      std::size_t content = newline - start_;
      if (content > 0 && buffer_[newline - 1] == '\r') --content;
      check(content);
      line.assign(buffer_, start_, newline + 1 - start_);
      start_ = newline + 1;
      ++line_number_;
      return true;
    }
    scanned = buffer_.size() - start_;
    // Unfinished, the line may still end with "\r" before its "\n": one byte more is allowed.
    if (scanned > limits_.max_line_bytes + 1) check(scanned);
    if (!fill_()) {
      if (start_ == buffer_.size()) return false;
      check(buffer_.back() == '\r' ? scanned - 1 : scanned);
      line.assign(buffer_, start_, std::string::npos);
      start_ = buffer_.size();
      ++line_number_;
      return true;
    }
  }
}

bool line_reader::next(std::string& line) {
  if (!next_raw(line)) return false;
  if (!line.empty() && line.back() == '\n') line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

std::vector<std::string> read_lines(const std::filesystem::path& file, input_limits limits) {
  line_reader reader(file, limits);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next(line)) lines.push_back(std::move(line));
  return lines;
}

std::string read_file(const std::filesystem::path& file, input_limits limits) {
  const int fd = open_input(file, false);
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && static_cast<std::uint64_t>(st.st_size) > limits.max_file_bytes) {
    ::close(fd);
    throw usage_error(too_large(file.string(), limits));
  }
  text.reserve(static_cast<std::size_t>(st.st_size));
  char chunk[chunk_bytes];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      throw usage_error(file.string() + ": cannot be read: " + std::strerror(e));
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > limits.max_file_bytes) {  // the file grew while it was read
      ::close(fd);
      throw usage_error(too_large(file.string(), limits));
    }
  }
  ::close(fd);
  return text;
}

std::string trim(std::string_view text) {
  const auto b = text.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string_view::npos) return {};
  const auto e = text.find_last_not_of(" \t\r\n\f\v");
  return std::string(text.substr(b, e - b + 1));
}

}  // namespace sqlmorph::core
