#include "openai_endpoint.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace sqlmorph::openai {

namespace {

std::string excerpt(std::string_view text, std::size_t limit = 300) {
  std::string out(text.substr(0, limit));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  if (text.size() > limit) out += "...";
  return out;
}

// OpenAI-style servers explain errors as {"error": {"message": "..."}} (some as {"error": "..."}).
std::string server_message(const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("error")) {
    const nlohmann::json& e = j["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string())
      return excerpt(e["message"].get<std::string>());
    if (e.is_string()) return excerpt(e.get<std::string>());
  }
  return body.empty() ? std::string("(empty body)") : excerpt(body);
}

std::string seconds_text(std::chrono::milliseconds ms) {
  std::string s = std::to_string(static_cast<double>(ms.count()) / 1000.0);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

openai_endpoint::openai_endpoint(endpoint_settings settings)
    : settings_(std::move(settings)), limiter_(settings_.max_in_flight) {
  if (!settings_.api_key_env.empty()) {
    const char* key = std::getenv(settings_.api_key_env.c_str());
    if (key == nullptr || *key == '\0') {
      throw std::invalid_argument("the environment variable " + settings_.api_key_env +
                                  " (option api_key_env) is not set or empty: set it to the API key of " +
                                  settings_.base_url +
                                  ", or set api_key_env to \"\" for a server without keys");
    }
    authorization_ = std::string("Authorization: Bearer ") + key;
  }
}

std::string openai_endpoint::check_reachable() const {
  const std::string target = url("/models");
  std::vector<std::string> headers;
  if (!authorization_.empty()) headers.push_back(authorization_);
  const auto timeout = std::min(settings_.timeout, std::chrono::milliseconds(10000));
  http_response r;
  try {
    r = http_.get(target, headers, timeout);
  } catch (const std::exception& e) {
    return "GET " + target + ": " + e.what();
  }
  if (!r.received) {
    return "GET " + target + ": " +
           (r.timed_out ? "no response within " + seconds_text(timeout) + " s"
                        : "no response: " + r.transport_error);
  }
  if (r.status == 401 || r.status == 403) {
    return "GET " + target + ": HTTP " + std::to_string(r.status) + ": " + server_message(r.body) +
           (settings_.api_key_env.empty() ? " (no API key was sent: set option api_key_env)"
                                          : " (is the key in " + settings_.api_key_env + " right?)");
  }
  return {};
}

api_reply openai_endpoint::post(std::string_view path, const nlohmann::json& request) const {
  const std::string target = url(path);
  const std::string body = request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::vector<std::string> headers;
  if (!authorization_.empty()) headers.push_back(authorization_);

  api_reply out;
  const int max_attempts = std::max(1, settings_.retry.max_attempts);
  for (int attempt = 1;; ++attempt) {
    http_response r;
    {
      const request_limiter::slot slot(limiter_);  // not held while waiting to retry
      r = http_.post(target, headers, body, settings_.timeout);
    }
    out.attempts = attempt;
    out.status = r.status;

    std::string failure;
    bool retryable = false;
    if (!r.received) {
      failure = r.timed_out ? "no response within " + seconds_text(settings_.timeout) + " s (option timeout)"
                            : "no response: " + r.transport_error;
      retryable = true;
    } else if (r.status < 200 || r.status > 299) {
      failure = "HTTP " + std::to_string(r.status) + ": " + server_message(r.body);
      retryable = retryable_status(r.status);
    } else {
      out.body = nlohmann::json::parse(r.body, nullptr, false);
      if (out.body.is_discarded()) {
        out.error = "POST " + target + ": HTTP " + std::to_string(r.status) +
                    " but the reply is not JSON: " + excerpt(r.body);
        out.body = nullptr;
        return out;
      }
      out.ok = true;
      return out;
    }

    if (!retryable || attempt >= max_attempts) {
      out.error = "POST " + target + ": " + failure;
      if (attempt > 1) out.error += " (gave up after " + std::to_string(attempt) + " attempts)";
      return out;
    }
    if (r.retry_after && *r.retry_after > settings_.retry.max_retry_after) {
      out.error = "POST " + target + ": " + failure + " (the server asked to wait " +
                  std::to_string(static_cast<long long>(*r.retry_after)) + " s, more than the " +
                  std::to_string(static_cast<long long>(settings_.retry.max_retry_after)) +
                  " s this client waits; attempt " + std::to_string(attempt) + ")";
      return out;
    }
    const double delay = retry_delay(settings_.retry, attempt, r.retry_after);
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
  }
}

}  // namespace sqlmorph::openai
