// query_runner keeps a worker's connections open between queries: database files in a large cache
// (a test suite's variants are visited in cycles, one query after the other, and each miss opens
// the file and parses its schema again), servers' connections in a small one.

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>

#include "backends/backend_routes.hpp"
#include "eval/query_runner.hpp"

using namespace sqlmorph;

namespace {

class idle_connection final : public connection {
 protected:
  run_status run(const statement_request&, row_sink&) override { return run_status::error("not run"); }
};

class counting_backend final : public backend {
 public:
  backend_capabilities capabilities() const override { return {"sqlite", statement_gate::sdk, false, false}; }
  mutable std::atomic<int> opens{0};

 protected:
  connect_outcome open(std::string_view) const override {
    ++opens;
    connect_outcome out;
    out.conn = std::make_unique<idle_connection>();
    return out;
  }
};

core::configured_backend make_backend(std::shared_ptr<counting_backend> engine, std::string target_template) {
  core::configured_backend b;
  b.name = target_template;
  b.component = "counting";
  b.engine = std::move(engine);
  b.target_template = std::move(target_template);
  return b;
}

// Runs `rounds` cycles of one query on each of databases first..first+targets-1; returns the
// connections opened.
int opens_over_cycles(core::query_runner& runner, const core::configured_backend& backend,
                      const counting_backend& engine, int targets, int rounds, int first = 0) {
  const int before = engine.opens;
  for (int round = 0; round < rounds; ++round) {
    for (int t = first; t < first + targets; ++t) {
      runner.execute({&backend, backend.target_for("db", "variant_" + std::to_string(t) + ".sqlite")},
                     "SELECT 1", query_role::pred);
    }
  }
  return engine.opens - before;
}

}  // namespace

TEST_CASE("query_runner: a cycle over a suite's 20 database files opens each file once") {
  auto engine = std::make_shared<counting_backend>();
  const core::configured_backend files = make_backend(engine, "{path}");
  core::query_runner runner(exec_limits{});
  CHECK(opens_over_cycles(runner, files, *engine, 20, 5) == 20);
}

TEST_CASE("query_runner: connections beyond a kind's limit close the least recently used of that kind") {
  auto engine = std::make_shared<counting_backend>();
  const core::configured_backend files = make_backend(engine, "{path}");
  const core::configured_backend server = make_backend(engine, "dbname={path}");
  core::query_runner runner(exec_limits{}, core::connection_limits{.files = 3, .servers = 2});

  // Three files fit; with a fourth in the cycle, every query after the first three misses (the
  // cycle is longer than the cache): 3 hits, then 5 opens.
  CHECK(opens_over_cycles(runner, files, *engine, 3, 4) == 3);
  CHECK(opens_over_cycles(runner, files, *engine, 4, 2) == 5);
  // Server connections have their own limit and do not push the files out.
  CHECK(opens_over_cycles(runner, server, *engine, 2, 3) == 2);
  CHECK(opens_over_cycles(runner, files, *engine, 3, 1, 1) == 0);  // variants 1..3 are still open
  CHECK(opens_over_cycles(runner, server, *engine, 3, 1) == 1);    // the third closes the first
}

TEST_CASE("connection_limits::for_workers: within the descriptor limit, 8 to 64 files per worker") {
  const core::connection_limits one = core::connection_limits::for_workers(1);
  CHECK(one.files >= 8);
  CHECK(one.files <= 64);
  CHECK(one.servers == 8);
  CHECK(core::connection_limits::for_workers(100000).files == 8);
}
