#include "http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <memory>
#include <stdexcept>

namespace sqlmorph::openai {

namespace {

void init_curl_once() {
  // curl_global_init is not thread-safe with every libcurl build: once per process. Never
  // cleaned up: other users of libcurl in the process may still need it.
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw std::runtime_error("curl_global_init failed");
  });
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

struct transfer {
  std::string body;
  std::optional<double> retry_after;
  std::optional<double> retry_after_ms;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<transfer*>(user)->body.append(data, size * count);
  return size * count;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<transfer*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {  // a new response (after a redirect or 100 Continue): start over
    t->retry_after.reset();
    t->retry_after_ms.reset();
    return size * count;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  const std::string_view name = line.substr(0, colon);
  const std::string value = trim(line.substr(colon + 1));
  if (iequals(name, "retry-after")) {
    t->retry_after = parse_retry_after(value);
  } else if (iequals(name, "retry-after-ms")) {
    double ms = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec == std::errc() && end == value.data() + value.size() && ms >= 0) t->retry_after_ms = ms / 1000.0;
  }
  return size * count;
}

struct slist_deleter {
  void operator()(curl_slist* l) const noexcept { curl_slist_free_all(l); }
};

}  // namespace

std::optional<double> parse_retry_after(const std::string& value) {
  const std::string v = trim(value);
  if (v.empty()) return std::nullopt;
  double seconds = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seconds);
  if (ec == std::errc() && end == v.data() + v.size()) {
    return seconds >= 0 ? std::optional<double>(seconds) : std::nullopt;
  }
  const time_t when = curl_getdate(v.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  const double delay = std::difftime(when, std::time(nullptr));
  return delay > 0 ? delay : 0.0;
}

http_client::http_client() {
  init_curl_once();
}

http_client::~http_client() {
  for (void* h : idle_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* http_client::acquire_() const {
  {
    const std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  CURL* h = curl_easy_init();
  if (h == nullptr) throw std::runtime_error("curl_easy_init failed");
  return h;
}

void http_client::release_(void* handle) const {
  const std::lock_guard lock(mutex_);
  idle_.push_back(handle);
}

http_response http_client::post(const std::string& url, const std::vector<std::string>& headers,
                                const std::string& body, std::chrono::milliseconds timeout) const {
  return perform_(url, headers, &body, timeout);
}

http_response http_client::get(const std::string& url, const std::vector<std::string>& headers,
                               std::chrono::milliseconds timeout) const {
  return perform_(url, headers, nullptr, timeout);
}

// A POST of `*body`, or a GET when `body` is null.
http_response http_client::perform_(const std::string& url, const std::vector<std::string>& headers,
                                    const std::string* body, std::chrono::milliseconds timeout) const {
  CURL* h = static_cast<CURL*>(acquire_());
  curl_easy_reset(h);  // keeps the handle's open connections for reuse

  curl_slist* raw = nullptr;
  for (const std::string& line : headers) raw = curl_slist_append(raw, line.c_str());
  if (body != nullptr) raw = curl_slist_append(raw, "Content-Type: application/json");
  raw = curl_slist_append(raw, "Accept: application/json");
  raw = curl_slist_append(raw, "Expect:");  // no 100-continue round trip for large bodies
  const std::unique_ptr<curl_slist, slist_deleter> header_list(raw);

  transfer t;
  char error_text[CURL_ERROR_SIZE] = {0};
  const long timeout_ms = std::max<long>(1, static_cast<long>(timeout.count()));
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  if (body != nullptr) {
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body->data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
  } else {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, std::min<long>(timeout_ms, 10000L));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // several threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(h, CURLOPT_USERAGENT, "sqlmorph");

  http_response out;
  const CURLcode rc = curl_easy_perform(h);
  if (rc == CURLE_OK) {
    out.received = true;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
    out.body = std::move(t.body);
    out.retry_after = t.retry_after_ms ? t.retry_after_ms : t.retry_after;
  } else {
    out.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    out.transport_error =
        error_text[0] != '\0' ? std::string(error_text) : std::string(curl_easy_strerror(rc));
  }
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
  release_(h);
  return out;
}

}  // namespace sqlmorph::openai
