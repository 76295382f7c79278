#include "runner/run_manifest.hpp"

#include <unistd.h>

#include <ctime>
#include <fstream>
#include <thread>

#include "app/exit_memory.hpp"
#include "datasets/text_lines.hpp"
#include "output/atomic_file.hpp"
#include "output/record_json.hpp"

namespace sqlmorph::core {

std::string iso_time(std::chrono::system_clock::time_point t) {
  const std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::ordered_json machine_description() {
  nlohmann::ordered_json m;
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  m["host"] = host;
  std::string cpu = "unknown";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  m["cpu"] = cpu;
  m["hardware_threads"] = std::thread::hardware_concurrency();
  return m;
}

run_manifest::~run_manifest() {
  leave_to_exit(data_);
}

run_manifest::run_manifest(std::filesystem::path file, std::string fingerprint)
    : file_(std::move(file)), started_(std::chrono::system_clock::now()) {
  data_["status"] = "running";
  data_["fingerprint"] = std::move(fingerprint);
  data_["started"] = iso_time(started_);
  data_["finished"] = nullptr;
}

run_manifest::previous_run run_manifest::read_previous(const std::filesystem::path& file) {
  previous_run r;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    r.problem = "is missing";
    return r;
  }
  try {
    const std::string text = read_file(file);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      r.problem = "is empty";
      return r;
    }
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      r.problem = "is not a JSON object (cut short or damaged)";
    } else if (!j.contains("fingerprint") || !j["fingerprint"].is_string() ||
               j["fingerprint"].get<std::string>().empty()) {
      r.problem = "has no fingerprint";
    } else {
      r.fingerprint = j["fingerprint"].get<std::string>();
      if (j.contains("database_hashes"))
        r.databases = database_hashes_from_json(j["database_hashes"], file.string());
    }
  } catch (const std::exception& e) {  // unreadable, or its database_hashes malformed
    r.fingerprint.clear();
    r.problem = std::string("cannot be read: ") + e.what();
  }
  return r;
}

void run_manifest::write(const std::string& status) {
  data_["status"] = status;
  if (status != "running") {
    const auto now = std::chrono::system_clock::now();
    data_["finished"] = iso_time(now);
    data_["wall_seconds"] = std::chrono::duration<double>(now - started_).count();
  }
  write_file_atomically(file_, dump_json(data_, 2) + "\n");
}

}  // namespace sqlmorph::core
