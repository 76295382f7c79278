#include "fake_openai_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace sqlmorph::test {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads one request from `buffer` + the socket; false when the peer closed or sent garbage.
bool read_request(int fd, std::string& buffer, recorded_request& out) {
  char chunk[8192];
  std::size_t header_end;
  while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    if (buffer.size() > (1u << 20)) return false;
  }
  const std::string head = buffer.substr(0, header_end);
  buffer.erase(0, header_end + 4);

  std::size_t line_end = head.find("\r\n");
  const std::string request_line = head.substr(0, line_end);
  const std::size_t sp1 = request_line.find(' ');
  const std::size_t sp2 = request_line.find(' ', sp1 + 1);
  if (sp1 == std::string::npos || sp2 == std::string::npos) return false;
  out.method = request_line.substr(0, sp1);
  out.path = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  while (line_end != std::string::npos) {
    const std::size_t start = line_end + 2;
    line_end = head.find("\r\n", start);
    const std::string line =
        head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos)
      out.headers[lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
  }
  const std::size_t length =
      out.headers.count("content-length") ? std::stoul(out.headers["content-length"]) : 0;
  while (buffer.size() < length) {
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  out.body = buffer.substr(0, length);
  buffer.erase(0, length);
  return true;
}

}  // namespace

scripted_reply scripted_reply::rate_limited(int retry_after_seconds) {
  scripted_reply r = json(R"({"error":{"message":"Rate limit reached","type":"requests"}})", 429);
  r.headers.emplace_back("Retry-After", std::to_string(retry_after_seconds));
  return r;
}

scripted_reply scripted_reply::rate_limited_ms(int retry_after_ms) {
  scripted_reply r = json(R"({"error":{"message":"Rate limit reached","type":"requests"}})", 429);
  r.headers.emplace_back("retry-after-ms", std::to_string(retry_after_ms));
  return r;
}

scripted_reply scripted_reply::server_error(int status) {
  return json(R"({"error":{"message":"The server had an error while processing your request"}})", status);
}

fake_openai_server::fake_openai_server(handler h, int port) : handler_(std::move(h)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  const int yes = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0) {
    const std::string e = std::strerror(errno);
    ::close(listen_fd_);
    throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + e);
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { accept_loop_(); });
}

fake_openai_server::~fake_openai_server() {
  stop();
}

std::string fake_openai_server::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

void fake_openai_server::enqueue(scripted_reply r) {
  const std::lock_guard lock(mutex_);
  queue_.push_back(std::move(r));
}

void fake_openai_server::set_handler(handler h) {
  const std::lock_guard lock(mutex_);
  handler_ = std::move(h);
}

std::size_t fake_openai_server::request_count() const {
  const std::lock_guard lock(mutex_);
  return requests_.size();
}

std::vector<recorded_request> fake_openai_server::requests() const {
  const std::lock_guard lock(mutex_);
  return requests_;
}

void fake_openai_server::set_models_reply(scripted_reply r) {
  const std::lock_guard lock(mutex_);
  models_reply_ = std::move(r);
}

std::size_t fake_openai_server::models_requests() const {
  const std::lock_guard lock(mutex_);
  return models_requests_;
}

std::size_t fake_openai_server::max_in_flight() const {
  const std::lock_guard lock(mutex_);
  return max_in_flight_;
}

void fake_openai_server::stop() {
  if (stopping_.exchange(true)) return;
  stop_cv_.notify_all();
  ::shutdown(listen_fd_, SHUT_RDWR);
  if (acceptor_.joinable()) acceptor_.join();
  ::close(listen_fd_);
  std::vector<std::thread> threads;
  {
    const std::lock_guard lock(mutex_);
    for (const int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
    threads.swap(connections_);
  }
  for (std::thread& t : threads) t.join();
}

void fake_openai_server::accept_loop_() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    const std::lock_guard lock(mutex_);
    if (stopping_) {
      ::close(fd);
      break;
    }
    open_fds_.push_back(fd);
    connections_.emplace_back([this, fd] { serve_connection_(fd); });
  }
}

scripted_reply fake_openai_server::next_reply_(const recorded_request& r) {
  handler h;
  {
    const std::lock_guard lock(mutex_);
    if (!queue_.empty()) {
      scripted_reply next = std::move(queue_.front());
      queue_.pop_front();
      return next;
    }
    h = handler_;
  }
  if (h) return h(r);
  return scripted_reply::json(R"({"error":{"message":"fake_openai_server: no reply scripted"}})", 500);
}

void fake_openai_server::serve_connection_(int fd) {
  std::string buffer;
  while (!stopping_) {
    recorded_request request;
    if (!read_request(fd, buffer, request)) break;
    // GET .../models (the clients' reachability check) is answered apart from the scripted API.
    const bool models = request.method == "GET" && request.path.ends_with("/models");
    scripted_reply reply;
    {
      const std::lock_guard lock(mutex_);
      if (models) {
        ++models_requests_;
        reply = models_reply_;
      } else {
        requests_.push_back(request);
      }
      max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
    }
    if (!models) reply = next_reply_(request);
    if (reply.delay.count() > 0) {
      std::unique_lock lock(mutex_);
      stop_cv_.wait_for(lock, reply.delay, [this] { return stopping_.load(); });
    }
    bool keep = !reply.drop && !stopping_;
    if (keep) {
      std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason(reply.status) + "\r\n";
      out +=
          "Content-Type: application/json\r\nContent-Length: " + std::to_string(reply.body.size()) + "\r\n";
      for (const auto& [name, value] : reply.headers) out += name + ": " + value + "\r\n";
      const bool close_requested = lower(request.header("connection")) == "close";
      out += close_requested ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
      out += reply.body;
      keep = send_all(fd, out) && !close_requested;
    }
    {
      const std::lock_guard lock(mutex_);
      --in_flight_;
    }
    if (!keep) break;
  }
  const std::lock_guard lock(mutex_);
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
  open_fds_.erase(std::remove(open_fds_.begin(), open_fds_.end(), fd), open_fds_.end());
}

}  // namespace sqlmorph::test
