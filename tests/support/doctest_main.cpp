#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "log/log.hpp"

namespace {

// Counts the test cases that ran, so that a filter matching none (a test name that ctest cut at a
// ';', a renamed test) is a failure, not a silent pass.
std::atomic<int> test_cases_started{0};

struct started_counter : doctest::IReporter {
  explicit started_counter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++test_cases_started; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

bool selects_test_cases(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--test-case=", 12) == 0 || std::strncmp(argv[i], "-tc=", 4) == 0) return true;
  }
  return false;
}

}  // namespace

REGISTER_LISTENER("started_counter", 1, started_counter);

// The tests provoke refusals and failures on purpose; their log lines would only be noise.
int main(int argc, char** argv) {
  sqlmorph::core::setup_logging(-1);
  spdlog::set_level(spdlog::level::off);
  doctest::Context context(argc, argv);
  const int failed = context.run();
  if (context.shouldExit()) return failed;
  if (failed == 0 && selects_test_cases(argc, argv) && test_cases_started.load() == 0) {
    std::fprintf(stderr, "no test case matches the --test-case filter: nothing ran\n");
    return 1;
  }
  return failed;
}
