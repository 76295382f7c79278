#include "eval/evaluation_run.hpp"

#include <chrono>
#include <cstring>
#include <fstream>

#include <spdlog/spdlog.h>

#include "errors.hpp"
#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "output/record_json.hpp"

namespace sqlmorph::core {

script_error_policy parse_script_error_policy(const std::string& text) {
  if (text == "mark") return script_error_policy::mark;
  if (text == "abort") return script_error_policy::abort;
  throw usage_error("on_script_error must be 'mark' or 'abort', not '" + text + "'");
}

evaluation_outcome run_evaluation(const std::vector<example>& examples, const evaluation_settings& settings) {
  const auto start = std::chrono::steady_clock::now();
  std::ofstream results;
  if (settings.out_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*settings.out_dir, ec);
    if (ec) throw usage_error("cannot create output directory " + settings.out_dir->string() + ": " + ec.message());
    const auto path = *settings.out_dir / "results.jsonl";
    results.open(path, std::ios::binary | std::ios::trunc);
    if (!results) throw usage_error("cannot write " + path.string() + ": " + std::strerror(errno));
  }

  query_runner runner(settings.engine, settings.limits);
  example_evaluator evaluator(runner, settings.techniques);
  evaluation_outcome out;
  auto last_report = start;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const std::vector<record> records = evaluator.evaluate(examples[i]);
    for (const record& r : records) {
      out.summary.add(r);
      if (results.is_open()) results << dump_json(record_to_json(r, true)) << '\n';
    }
    if (results.is_open()) results.flush();
    if (settings.on_script_error == script_error_policy::abort) {
      for (const record& r : records) {
        if (r.status == example_status::script_error) {
          throw run_aborted("run stopped at example " + examples[i].id + " (technique " + r.technique +
                            ") on a script error, as [lua] on_error = \"abort\" asks:\n" + r.error);
        }
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report > std::chrono::seconds(5)) {
      spdlog::info("{} / {} examples evaluated", i + 1, examples.size());
      last_report = now;
    }
  }
  out.examples = examples.size();
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (settings.out_dir) {
    if (!results) throw usage_error("writing " + (*settings.out_dir / "results.jsonl").string() + " failed");
    const auto path = *settings.out_dir / "summary.json";
    std::ofstream summary(path, std::ios::binary | std::ios::trunc);
    summary << dump_json(out.summary.to_json(out.examples, out.wall_seconds), 2) << '\n';
    if (!summary) throw usage_error("cannot write " + path.string());
  }
  return out;
}

}  // namespace sqlmorph::core
