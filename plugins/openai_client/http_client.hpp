#pragma once
// One HTTP request (POST, or GET) over libcurl, with a pool of easy handles so that connections are reused
// (keep-alive) across calls and threads.

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sqlmorph::openai {

/// What one POST gave: a response (any status), or a transport failure (no response).
struct http_response {
  /// A response arrived (status and body are set); false: `transport_error` says why.
  bool received = false;
  /// The transport failure was the per-request time limit.
  bool timed_out = false;
  std::string transport_error;
  long status = 0;
  std::string body;
  /// The delay the server asked for with `Retry-After` (seconds or an HTTP date) or
  /// `retry-after-ms`, in seconds.
  std::optional<double> retry_after;
};

/// Thread-safe: each call takes an idle handle from the pool (or makes one) and returns it after.
class http_client {
 public:
  http_client();
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// POSTs `body` to `url` with `headers` ("Name: value" lines). The whole exchange (connect,
  /// send, receive) is limited to `timeout`. Never throws for network failures.
  http_response post(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                     std::chrono::milliseconds timeout) const;
  /// GETs `url`, as post() does.
  http_response get(const std::string& url, const std::vector<std::string>& headers,
                    std::chrono::milliseconds timeout) const;

 private:
  http_response perform_(const std::string& url, const std::vector<std::string>& headers,
                         const std::string* body, std::chrono::milliseconds timeout) const;
  void* acquire_() const;
  void release_(void* handle) const;

  mutable std::mutex mutex_;
  mutable std::vector<void*> idle_;  // CURL* handles
};

/// Parses a `Retry-After` value: delay-seconds or an HTTP date (relative to now). nullopt when
/// it is neither.
std::optional<double> parse_retry_after(const std::string& value);

}  // namespace sqlmorph::openai
