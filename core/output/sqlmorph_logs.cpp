#include "output/sqlmorph_logs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <map>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "output/record_json.hpp"
#include "output/write_all.hpp"

namespace sqlmorph::core {
namespace {

using nlohmann::ordered_json;

std::string local_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  localtime_r(&now, &parts);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d_%H-%M-%S", &parts);
  return buf;
}

ordered_json number_or_null(const std::optional<double>& v) {
  return v ? ordered_json(*v) : ordered_json();
}

// SQLMorph's context of one evaluation, from sqlmorph's record and the example's evidence.
ordered_json context_of(const record& r, const nlohmann::json& evidence, const std::string& timestamp) {
  ordered_json c;
  const auto text = [&](const char* key) { return json_text(evidence, key); };
  c["db_params"] = {{"db_id", text("db_id")}};
  c["predicted_sql"] = text("pred");
  c["ground_truth_sql"] = text("gold");
  c["penalize_extra_pred_cols"] =
      r.penalize_extra_pred_cols ? ordered_json(*r.penalize_extra_pred_cols) : ordered_json();
  ordered_json metrics = ordered_json::object();
  if (r.scores.ex) metrics["EX"] = static_cast<int>(*r.scores.ex);
  if (r.scores.exp) metrics["EXP"] = *r.scores.exp;
  if (r.scores.exr) metrics["EXR"] = *r.scores.exr;
  if (r.scores.f1) metrics["F1"] = *r.scores.f1;
  c["metrics"] = std::move(metrics);
  c["has_error"] = r.status != example_status::ok;
  if (!r.error.empty()) c["error_message"] = r.error;
  c["ex_is_one"] = r.scores.ex && *r.scores.ex == 1.0;
  const auto side = [&](const char* key, const char* cols, const char* rows) {
    const auto it = evidence.find(key);
    if (it == evidence.end() || !it->is_object()) return;
    c[cols] = it->value("columns", nlohmann::json::array());
    c[rows] = it->value("rows", nlohmann::json::array());
  };
  side("pred_result", "pred_cols", "pred_rows");
  side("gold_result", "gt_cols", "gt_rows");
  // SQLMorph's predicted_cells is the denominator of EXP: every predicted cell when penalizing,
  // else the aligned ones.
  const std::string pred_cells =
      r.penalize_extra_pred_cols && !*r.penalize_extra_pred_cols ? "cells.pred_aligned" : "cells.pred";
  for (const auto& [name, v] : r.scores.extra) {
    const char* as = name == "cells.gold"      ? "ground_truth_cells"
                     : name == pred_cells      ? "predicted_cells"
                     : name == "cells.matched" ? "matched_cells"
                                               : nullptr;
    if (as != nullptr && std::holds_alternative<double>(v)) c[as] = std::get<double>(v);
  }
  c["latency"] = ((r.gold_ms ? *r.gold_ms : 0.0) + (r.pred_ms ? *r.pred_ms : 0.0)) / 1000.0;
  c["evaluation_timestamp"] = timestamp;
  // sqlmorph's own labels, to join the logs with results.jsonl.
  c["id"] = r.id_is_number ? ordered_json::parse(r.id) : ordered_json(r.id);
  c["system"] = r.system.empty() ? ordered_json() : ordered_json(r.system);
  c["db_id"] = r.db_id;
  c["technique"] = r.technique;
  c["status"] = std::string(example_status_name(r.status));
  c["gold_ms"] = number_or_null(r.gold_ms);
  c["pred_ms"] = number_or_null(r.pred_ms);
  return c;
}

// Creates DIR/evaluation-<timestamp>.json, or with -2, -3 ... when that name exists (several
// evaluations within one second), and writes `text` to it.
std::filesystem::path write_new_file(const std::filesystem::path& dir, const std::string& timestamp,
                                     const std::string& text) {
  for (int n = 1;; ++n) {
    const std::filesystem::path file =
        dir / ("evaluation-" + timestamp + (n == 1 ? "" : "-" + std::to_string(n)) + ".json");
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      throw usage_error("--sqlmorph-logs: cannot create " + file.string() + ": " + std::strerror(errno));
    }
    try {
      write_all(fd, file, text);
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
    return file;
  }
}

}  // namespace

sqlmorph_log_writer::sqlmorph_log_writer(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw usage_error("--sqlmorph-logs: cannot create " + dir_.string() + ": " + ec.message());
}

void sqlmorph_log_writer::write_unit(const std::vector<std::string>& evidence,
                                     const std::vector<record>& records) {
  std::map<std::pair<std::string, std::string>, nlohmann::json> by_example;
  for (const std::string& line : evidence) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    std::pair<std::string, std::string> key{json_id(j), json_text(j, "system")};
    by_example.emplace(std::move(key), std::move(j));
  }
  static const nlohmann::json no_evidence = nlohmann::json::object();
  const std::string timestamp = local_timestamp();
  for (const record& r : records) {
    if (r.judgement) continue;
    const auto it = by_example.find({r.id, r.system});
    const ordered_json c = context_of(r, it != by_example.end() ? it->second : no_evidence, timestamp);
    const std::filesystem::path technique_dir = dir_ / r.technique;
    std::error_code ec;
    std::filesystem::create_directories(technique_dir, ec);
    if (ec)
      throw usage_error("--sqlmorph-logs: cannot create " + technique_dir.string() + ": " + ec.message());
    write_new_file(technique_dir, timestamp, dump_json(c, 2) + "\n");
    ++written_;
  }
}

}  // namespace sqlmorph::core
