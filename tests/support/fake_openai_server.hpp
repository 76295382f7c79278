#pragma once
// A loopback HTTP/1.1 server that speaks enough of the OpenAI API for tests: started in-process
// on 127.0.0.1 with an ephemeral port, it answers each request from a queue of scripted replies
// or from a handler, can delay, fail, rate-limit or drop, and records every request it received.
// Plain POSIX sockets; one thread per connection (so concurrent requests really overlap);
// Content-Length bodies only; keep-alive honoured.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace sqlmorph::test {

/// One request as the server read it.
struct recorded_request {
  std::string method;
  std::string path;
  /// Header names lower-cased.
  std::map<std::string, std::string> headers;
  std::string body;
  std::string header(const std::string& lower_name) const {
    const auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

/// What to answer.
struct scripted_reply {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  ///< extra headers (e.g. Retry-After)
  /// Wait this long before answering (a slow server; cut short when the server stops).
  std::chrono::milliseconds delay{0};
  /// Close the connection without answering (a connection failure at the client).
  bool drop = false;

  static scripted_reply json(std::string body, int status = 200) {
    return {status, std::move(body), {}, {}, false};
  }
  /// 429 with `Retry-After: <seconds>`.
  static scripted_reply rate_limited(int retry_after_seconds = 0);
  /// 429 with OpenAI's `retry-after-ms`.
  static scripted_reply rate_limited_ms(int retry_after_ms);
  static scripted_reply server_error(int status = 500);
};

class fake_openai_server {
 public:
  using handler = std::function<scripted_reply(const recorded_request&)>;

  /// Listens on 127.0.0.1:`port` (0: an ephemeral port) and starts serving.
  explicit fake_openai_server(handler h = {}, int port = 0);
  ~fake_openai_server();
  fake_openai_server(const fake_openai_server&) = delete;
  fake_openai_server& operator=(const fake_openai_server&) = delete;

  int port() const noexcept { return port_; }
  /// "http://127.0.0.1:<port>/v1", the base_url of the OpenAI-compatible components.
  std::string base_url() const;

  /// Replies used before the handler, first in first out (one per request).
  void enqueue(scripted_reply r);
  void set_handler(handler h);

  /// The requests of the API (POSTs): replies come from the queue or the handler.
  std::size_t request_count() const;
  std::vector<recorded_request> requests() const;
  /// `GET .../models` — what clients send to check the server answers (preflight) — is answered
  /// apart, with `r` (by default 200 and an empty model list), and only counted.
  void set_models_reply(scripted_reply r);
  std::size_t models_requests() const;
  /// The most requests being answered at the same time so far.
  std::size_t max_in_flight() const;

  /// Stops accepting, cuts delays short, closes connections and joins the threads (idempotent).
  void stop();

 private:
  void accept_loop_();
  void serve_connection_(int fd);
  scripted_reply next_reply_(const recorded_request& r);

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;

  mutable std::mutex mutex_;
  std::condition_variable stop_cv_;
  handler handler_;
  std::deque<scripted_reply> queue_;
  std::vector<recorded_request> requests_;
  scripted_reply models_reply_ = scripted_reply::json(R"({"object":"list","data":[]})");
  std::size_t models_requests_ = 0;
  std::vector<int> open_fds_;
  std::vector<std::thread> connections_;
  std::size_t in_flight_ = 0;
  std::size_t max_in_flight_ = 0;
};

}  // namespace sqlmorph::test
