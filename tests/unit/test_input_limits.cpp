// Reading input files within bounds: a line or a file over the limits, and files that are not
// regular files (/dev/zero, a pipe, a directory), end with a clear error — never an endless read.

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include "datasets/cases_file.hpp"
#include "datasets/spider_files.hpp"
#include "datasets/text_lines.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

constexpr core::input_limits small{10, 100};

}  // namespace

TEST_CASE("input limits: a line longer than the limit names the file and line") {
  test::temp_dir dir;
  const auto file = dir.path() / "lines.txt";
  test::write_file(file, "short\r\n0123456789\nthis one is too long\nnever read\n");
  core::line_reader reader(file, small);
  std::string line;
  REQUIRE(reader.next(line));
  CHECK(line == "short");
  REQUIRE(reader.next(line));
  CHECK(line == "0123456789");  // exactly the limit
  CHECK(test::usage_error_of([&] { reader.next(line); }) == file.string() + ":3: line longer than 10 bytes");
  // The same without a final newline, and with "\r\n" not counted in the line.
  test::write_file(file, "0123456789\r\n01234567890");
  CHECK(test::usage_error_of([&] { core::read_lines(file, small); }) ==
        file.string() + ":2: line longer than 10 bytes");
  test::write_file(file, "0123456789\r\n0123456789\r");
  CHECK(core::read_lines(file, small) == std::vector<std::string>{"0123456789", "0123456789"});
}

TEST_CASE("input limits: every reader refuses a long line") {
  test::temp_dir dir;
  const std::string long_line(100, 'x');
  const auto cases = dir.path() / "cases.jsonl";
  test::write_file(cases, "{\"id\": \"" + long_line + "\"}\n");
  auto reader = core::line_reader(cases, {50, 1000});
  CHECK(test::usage_error_of([&] { core::read_cases(reader, dir.path()); }) ==
        cases.string() + ":1: line longer than 50 bytes");
  const auto pred = dir.path() / "pred.sql";
  test::write_file(pred, "SELECT 1\nSELECT '" + long_line + "'\n");
  auto preds = core::line_reader(pred, {50, 1000});
  CHECK(test::usage_error_of([&] {
          core::read_spider_predictions(preds, false, {}, core::prediction_tabs::official);
        }) == pred.string() + ":2: line longer than 50 bytes");
  const auto csv = dir.path() / "pred.csv";
  test::write_file(csv, "PREDICTED SQL\n\"SELECT\n'" + long_line + "'\"\n");
  auto csv_lines = core::line_reader(csv, {50, 1000});
  CHECK(test::usage_error_of([&] {
          core::read_spider_predictions(csv_lines, true, {}, core::prediction_tabs::official);
        }) == csv.string() + ":3: line longer than 50 bytes");
}

TEST_CASE("input limits: a file larger than the limit is refused") {
  test::temp_dir dir;
  const auto file = dir.path() / "big.txt";
  std::string text;
  for (int i = 0; i < 30; ++i) text += "line\n";  // 150 bytes
  test::write_file(file, text);
  const std::string expected =
      file.string() + ": larger than 100 bytes, the most sqlmorph reads from one input file";
  CHECK(test::usage_error_of([&] { core::read_lines(file, small); }) == expected);
  CHECK(test::usage_error_of([&] { core::read_file(file, small); }) == expected);
  CHECK(core::read_file(file).size() == 150);
  CHECK(test::usage_error_of([&] { core::line_reader::from_text(text, "text", small); }) ==
        "text: larger than 100 bytes, the most sqlmorph reads from one input file");
}

TEST_CASE("input limits: devices, directories and sockets are refused, pipes are read only line by line") {
  CHECK(test::usage_error_of([] { core::read_lines("/dev/zero"); }) ==
        "/dev/zero: is a character device, not a file sqlmorph reads");
  CHECK(test::usage_error_of([] { core::read_file("/dev/zero"); }) ==
        "/dev/zero: is a character device, not a file sqlmorph reads");
  CHECK(test::usage_error_of([] { core::read_cases_file("/dev/zero"); }) ==
        "/dev/zero: is a character device, not a file sqlmorph reads");
  test::temp_dir dir;
  CHECK(test::usage_error_of([&] { core::read_file(dir.path()); }) ==
        dir.path().string() + ": is a directory, not a file sqlmorph reads");
  CHECK(test::usage_error_of([&] { core::read_cases_file(dir.path()); }) ==
        dir.path().string() + ": is a directory, not a file sqlmorph reads");
  CHECK(test::usage_error_of([&] {
          core::read_lines(dir.path() / "none");
        }).find(": cannot be read: No such file or directory") != std::string::npos);

  // An endless pipe: stopped by the line limit, or by the file limit when its lines are short.
  const auto fifo = dir.path() / "fifo";
  {
    test::endless_fifo feed(fifo, std::string(4096, 'x'));
    CHECK(test::usage_error_of([&] { core::read_cases_file(fifo); }) ==
          fifo.string() + ":1: line longer than 16777216 bytes");
  }
  {
    test::endless_fifo feed(fifo, "SELECT 1\n");
    CHECK(test::usage_error_of([&] {
            core::read_lines(fifo, {100, 100000});
          }) == fifo.string() + ": larger than 100000 bytes, the most sqlmorph reads from one input file");
  }
  // Read as a whole (a JSON document), a pipe is refused before it is opened.
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(test::usage_error_of([&] { core::read_file(fifo); }) ==
        fifo.string() +
            ": is a pipe, not a file sqlmorph reads (this input is read as a whole: give a regular file)");
}
