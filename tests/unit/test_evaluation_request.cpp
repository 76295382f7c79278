// The one builder of a run's settings (app/evaluation_request): `eval`, the Python module, Lua's
// sqlmorph.evaluate and `judge` all go through it, so defaults and refusals are the same everywhere
// and only the names of the settings in messages differ.

#include <doctest/doctest.h>

#include "app/evaluation_request.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using namespace sqlmorph::core;

namespace {

std::string lua_name(std::string_view setting) {
  return "sqlmorph.evaluate: '" + std::string(setting) + "'";
}

evaluation_request execution_accuracy_only() {
  evaluation_request r;
  r.techniques = {"execution_accuracy"};
  r.preflight = false;
  return r;
}

}  // namespace

TEST_CASE("the command line names a setting with dashes") {
  CHECK(option_name("gold_timeout") == "--gold-timeout");
  CHECK(option_name("jobs") == "--jobs");
}

TEST_CASE(
    "limits: sqlmorph.toml under the request, a timeout for both roles beating the file's per-role ones") {
  config cfg;
  cfg.run.timeout_seconds = 30;
  cfg.run.gold_timeout_seconds = 100;
  cfg.run.max_rows = 500;
  run_limits l = run_limits_from(cfg, {});
  CHECK(l.gold.timeout_seconds == 100);
  CHECK(l.pred.timeout_seconds == 30);
  CHECK(l.pred.max_rows == 500);
  limit_request asked;
  asked.timeout = 5;
  asked.pred_timeout = 2;
  asked.max_rows = 7;
  l = run_limits_from(cfg, asked);
  CHECK(l.gold.timeout_seconds == 5);
  CHECK(l.pred.timeout_seconds == 2);
  CHECK(l.gold.max_rows == 7);
  asked.timeout = -1;
  CHECK(test::usage_error_of([&] { run_limits_from(cfg, asked); }).find("--timeout") != std::string::npos);
  CHECK(test::usage_error_of([&] {
          run_limits_from(cfg, asked, lua_name);
        }).find("sqlmorph.evaluate: 'timeout'") != std::string::npos);
}

TEST_CASE("settings: the same refusals whoever asks, each naming the setting its own way") {
  config cfg;
  evaluation_request r = execution_accuracy_only();
  r.resume = r.overwrite = true;
  CHECK(test::usage_error_of([&] { evaluation_settings_for(r, cfg, test::registry(), test::catalog()); }) ==
        "--resume and --overwrite contradict each other: choose one");
  r.name = lua_name;
  CHECK(test::usage_error_of([&] { evaluation_settings_for(r, cfg, test::registry(), test::catalog()); }) ==
        "sqlmorph.evaluate: 'resume' and sqlmorph.evaluate: 'overwrite' contradict each other: choose one");

  evaluation_request nothing = execution_accuracy_only();
  nothing.techniques = split_technique_list("none");  // what --techniques none asks
  CHECK(test::usage_error_of([&] {
          evaluation_settings_for(nothing, cfg, test::registry(), test::catalog());
        }).find("nothing to do: --techniques none and no --judges") != std::string::npos);

  evaluation_request jobs = execution_accuracy_only();
  jobs.jobs = 1e6;
  jobs.name = lua_name;
  CHECK(test::usage_error_of([&] {
          evaluation_settings_for(jobs, cfg, test::registry(), test::catalog());
        }).find("sqlmorph.evaluate: 'jobs'") != std::string::npos);
}

TEST_CASE("settings: defaults from sqlmorph.toml, and run.json's description of how the run was made") {
  config cfg;
  cfg.run.jobs = 3;
  cfg.run.cache_dir = "/tmp/somewhere";
  cfg.lua.on_error = "abort";
  evaluation_request r = execution_accuracy_only();
  const evaluation_settings s = evaluation_settings_for(r, cfg, test::registry(), test::catalog());
  CHECK(s.jobs == 3);
  REQUIRE(s.cache_dir.has_value());
  CHECK(*s.cache_dir == "/tmp/somewhere");
  CHECK(s.on_script_error == script_error_policy::abort);
  CHECK_FALSE(s.out_dir.has_value());
  CHECK(s.techniques.size() == 1);
  for (const char* field : {"command", "configuration", "plugins", "build_fingerprint"}) {
    CAPTURE(field);
    CHECK(s.manifest.contains(field));
  }
  r.jobs = 2;
  r.on_script_error = "mark";
  r.keep_rows = 5;
  const evaluation_settings asked = evaluation_settings_for(r, cfg, test::registry(), test::catalog());
  CHECK(asked.jobs == 2);
  CHECK(asked.on_script_error == script_error_policy::mark);
  CHECK(asked.evidence.keep_rows == 5);
}
