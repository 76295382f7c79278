// sqlmorph._native: the engine for the Python package (python/sqlmorph). It parses nothing itself:
// keyword arguments arrive as the CLI's options (cli/command_requests.hpp), and the same functions
// the `compare` and `eval` commands call build the examples and settings and run them.
//
// An evaluation runs on a thread of its own; the Python side pulls finished records from it with
// the GIL released while waiting, so Ctrl-C, the progress callback and the generator all live on
// the calling Python thread, and worker threads never touch Python.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/environment.hpp"
#include "cli/command_requests.hpp"
#include "config/config.hpp"
#include "errors.hpp"
#include "log/log.hpp"
#include "output/record_json.hpp"
#include "runner/evaluation_runner.hpp"

namespace py = pybind11;
using namespace sqlmorph::core;

namespace {

template <typename T>
std::optional<T> optional_item(const py::dict& d, const char* key) {
  if (!d.contains(key) || d[key].is_none()) return std::nullopt;
  return d[key].cast<T>();
}

template <typename T>
void read_item(const py::dict& d, const char* key, T& into) {
  if (auto v = optional_item<T>(d, key)) into = std::move(*v);
}

run_options run_options_from(const py::dict& d) {
  run_options o;
  read_item(d, "techniques", o.techniques);
  read_item(d, "penalize", o.penalize);
  o.timeout = optional_item<double>(d, "timeout");
  o.gold_timeout = optional_item<double>(d, "gold_timeout");
  o.pred_timeout = optional_item<double>(d, "pred_timeout");
  o.max_rows = optional_item<std::uint64_t>(d, "max_rows");
  o.backend = optional_item<std::string>(d, "backend");
  o.gold_backend = optional_item<std::string>(d, "gold_backend");
  o.pred_backend = optional_item<std::string>(d, "pred_backend");
  read_item(d, "db_backends", o.db_backends);
  o.embedding_cache = optional_item<std::string>(d, "embedding_cache");
  read_item(d, "no_embedding_cache", o.no_embedding_cache);
  read_item(d, "no_preflight", o.no_preflight);
  for (const char* key : {"timeout", "gold_timeout", "pred_timeout"}) {
    if (auto v = optional_item<double>(d, key); v && *v < 0)
      throw usage_error(std::string(key) + " must be 0 or more seconds");
  }
  return o;
}

std::optional<std::filesystem::path> config_path(const std::optional<std::string>& config) {
  if (!config) return std::nullopt;
  return std::filesystem::path(*config);
}

py::object parse_json(const std::string& text) {
  // A leaked handle, not a static py::object: a static's destructor would drop the reference after
  // the interpreter has finalized (a fatal "GIL is released" abort at exit once numpy is loaded).
  static const py::handle loads = py::object(py::module_::import("json").attr("loads")).release();
  return loads(text);
}

py::list compare(const std::optional<std::string>& config, const py::dict& request) {
  compare_options o;
  o.db = request["db"].cast<std::string>();
  read_item(request, "db_id", o.db_id);
  o.gold = request["gold"].cast<std::string>();
  o.pred = request["pred"].cast<std::string>();
  o.run = run_options_from(request);
  std::string text;
  {
    py::gil_scoped_release release;
    const auto env = environment::load(config_path(config));
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const record& r : compare_records(*env, o)) j.push_back(record_to_json(r, false));
    text = dump_json(j);
  }
  return parse_json(text);
}

/// One evaluation on its own thread, its records queued for the Python side.
class evaluation_handle {
 public:
  evaluation_handle(const std::optional<std::string>& config, const py::dict& request) {
    eval_options o;
    o.cases = optional_item<std::string>(request, "cases");
    o.benchmark = optional_item<std::string>(request, "benchmark");
    o.gold = optional_item<std::string>(request, "gold");
    read_item(request, "preds", o.preds);
    o.db_root = optional_item<std::string>(request, "db_root");
    o.system = optional_item<std::string>(request, "system");
    read_item(request, "pred_tabs", o.pred_tabs);
    o.out = optional_item<std::string>(request, "out").value_or("");
    o.jobs = optional_item<unsigned>(request, "jobs");
    o.cache = optional_item<std::string>(request, "cache");
    read_item(request, "resume", o.resume);
    read_item(request, "overwrite", o.overwrite);
    read_item(request, "require_databases", o.require_databases);
    read_item(request, "backends", o.backends);
    read_item(request, "judges", o.judges);
    o.questions = optional_item<std::string>(request, "questions");
    o.tables = optional_item<std::string>(request, "tables");
    o.run = run_options_from(request);
    o.progress = "none";
    // run.json says how the run was made: the call and its arguments, as the CLI's command line.
    const py::object as_text = py::module_::import("builtins").attr("str");
    const std::string arguments =
        py::module_::import("json").attr("dumps")(request, py::arg("default") = as_text).cast<std::string>();
    py::gil_scoped_release release;
    env_ = environment::load(config_path(config));
    examples_ = read_examples(o);
    settings_ = evaluation_settings_from(*env_, o, true);
    settings_.manifest["command"] = {"python", "sqlmorph.evaluate"};
    settings_.manifest["arguments"] = nlohmann::ordered_json::parse(arguments);
    settings_.handle_signals = false;
    settings_.stop_requested = &stop_;
    settings_.on_unit = [this](const std::vector<record>& records) {
      std::string lines;
      for (const record& r : records) {
        append_record_json(lines, r, true);
        lines += '\n';
      }
      {
        // Backpressure: the run stays at most a few units ahead of the Python side (a stream
        // stopped after N records has evaluated about N more, not the whole benchmark).
        std::unique_lock lock(mutex_);
        space_.wait(lock, [&] { return queue_.size() < max_queued_units_ || stop_.load(); });
        queue_.push_back(std::move(lines));
      }
      changed_.notify_all();
    };
    max_queued_units_ = std::max<std::size_t>(2, 2 * static_cast<std::size_t>(std::max(1u, settings_.jobs)));
    per_example_ = std::max<std::size_t>(
        1, settings_.techniques.size() + (settings_.exact_match ? 1 : 0) + settings_.judges.size());
    thread_ = std::thread([this] {
      try {
        outcome_ = run_evaluation(examples_, settings_);
      } catch (...) {
        failure_ = std::current_exception();
      }
      {
        std::lock_guard lock(mutex_);
        done_ = true;
      }
      changed_.notify_all();
    });
  }

  ~evaluation_handle() { stop(); }

  /// The JSON lines of the units finished since the last call ("" if none within timeout_ms), or
  /// None once the run has ended and everything was taken.
  std::optional<std::string> next(int timeout_ms) {
    py::gil_scoped_release release;
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return !queue_.empty() || done_; });
    if (queue_.empty()) {
      if (done_) return std::nullopt;
      return std::string();
    }
    std::string lines;
    for (std::string& part : queue_) lines += part;
    queue_.clear();
    space_.notify_all();
    return lines;
  }

  /// Asks the run to stop (as an interrupt does) and waits for it.
  void stop() {
    {
      std::lock_guard lock(mutex_);  // a producer waiting for space sees it
      stop_ = true;
    }
    space_.notify_all();
    py::gil_scoped_release release;
    if (thread_.joinable()) thread_.join();
  }

  /// After the run: {"summary": summary.json, "statistics": ...}; rethrows what stopped the run.
  py::object finish() {
    {
      py::gil_scoped_release release;
      if (thread_.joinable()) thread_.join();
    }
    if (failure_) std::rethrow_exception(failure_);
    const auto& s = outcome_.stats;
    nlohmann::ordered_json j;
    j["summary"] = outcome_.summary.to_json(outcome_.examples, outcome_.wall_seconds);
    j["statistics"] = {{"examples", outcome_.examples},
                       {"wall_seconds", outcome_.wall_seconds},
                       {"jobs", s.jobs},
                       {"units", s.units},
                       {"resumed_units", s.resumed_units},
                       {"gold_executed", s.gold_executed},
                       {"pred_executed", s.pred_executed},
                       {"gold_from_disk_cache", s.gold_from_disk},
                       {"reused", s.reused},
                       {"shared_answers", s.shared_answers},
                       {"shared_scores", s.shared_scores},
                       {"interrupted", s.interrupted}};
    return parse_json(dump_json(j));
  }

  std::size_t examples() const { return examples_.size(); }
  std::size_t records_per_example() const { return per_example_; }

 private:
  std::unique_ptr<environment> env_;
  std::vector<example> examples_;
  evaluation_settings settings_;
  std::size_t per_example_ = 1;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::condition_variable space_;
  std::size_t max_queued_units_ = 2;
  std::deque<std::string> queue_;
  bool done_ = false;
  evaluation_outcome outcome_;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "The sqlmorph engine; use the sqlmorph package, not this module.";
  static py::exception<usage_error> usage_exc(m, "UsageError", PyExc_ValueError);
  static py::exception<input_error> input_exc(m, "InputError", usage_exc.ptr());
  static py::exception<script_error> script_exc(m, "ScriptError", input_exc.ptr());
  static py::exception<run_aborted> aborted_exc(m, "RunAborted", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const input_error& e) {
      input_exc(e.what());
    } catch (const usage_error& e) {
      usage_exc(e.what());
    } catch (const script_error& e) {
      script_exc(e.full().c_str());
    } catch (const run_aborted& e) {
      aborted_exc(e.what());
    }
  });
  m.def(
      "set_home", [](const std::string& dir) { set_executable_dir(dir); },
      "Where the default configuration finds plugins and scripts.");
  m.def("set_verbosity", &setup_logging, "-1 errors only, 0 default, 1 debug, 2 trace.");
  m.def("compare", &compare, py::arg("config"), py::arg("request"));
  py::class_<evaluation_handle>(m, "Evaluation")
      .def(py::init<const std::optional<std::string>&, const py::dict&>(), py::arg("config"),
           py::arg("request"))
      .def("next", &evaluation_handle::next, py::arg("timeout_ms"))
      .def("stop", &evaluation_handle::stop)
      .def("finish", &evaluation_handle::finish)
      .def_property_readonly("examples", &evaluation_handle::examples)
      .def_property_readonly("records_per_example", &evaluation_handle::records_per_example);
}
