// [judges.NAME] in sqlmorph.toml, judge records in results.jsonl (written and read back for
// --resume), and Spider's questions from dev.json.

#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "datasets/spider_questions.hpp"
#include "errors.hpp"
#include "output/record_json.hpp"
#include "output/run_summary.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {
std::filesystem::path write(const test::temp_dir& dir, const std::string& text,
                            const char* name = "sqlmorph.toml") {
  const auto file = dir.path() / name;
  std::ofstream(file) << text;
  return file;
}
std::string error_of(const std::filesystem::path& file) {
  return test::usage_error_of([&] { core::load_config(file); });
}
}  // namespace

TEST_CASE("judges are declared in [judges.NAME] tables, in file order") {
  test::temp_dir dir;
  const auto file = write(dir,
                          "[judges.strict]\nplugin = \"sql_correctness\"\noptions = { timeout = 2.5 }\n\n"
                          "[judges.adherence]\nplugin = \"sql_adherence\"\n"
                          "options = { base_url = \"http://127.0.0.1:9/v1\", api_key_env = \"\", votes = 3, "
                          "logprobs = true }\n\n"
                          "[judges.sql_correctness]\n");
  const core::config c = core::load_config(file);
  REQUIRE(c.judges.size() == 3);
  CHECK(c.judges[0].name == "strict");
  CHECK(c.judges[0].component == "sql_correctness");
  CHECK(std::get<double>(c.judges[0].options.at("timeout")) == 2.5);
  CHECK(c.judges[0].origin == file.string() + ":1:1");
  CHECK(c.judges[1].name == "adherence");
  CHECK(c.judges[1].component == "sql_adherence");
  CHECK(std::get<std::string>(c.judges[1].options.at("api_key_env")).empty());
  CHECK(std::get<std::int64_t>(c.judges[1].options.at("votes")) == 3);
  CHECK(std::get<bool>(c.judges[1].options.at("logprobs")) == true);
  // No plugin: the name is the component.
  CHECK(c.judges[2].component == "sql_correctness");
  CHECK(c.judges[2].options.empty());
}

TEST_CASE("mistakes in [judges] are errors with file:line:column") {
  test::temp_dir dir;
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"[judges.a]\nplugn = \"x\"\n",
       ":2:1: unknown key 'plugn' in [judges.a] (known keys: options, plugin)"},
      {"[judges.a]\nplugin = 3\n", ":2:10: 'plugin' must be a string"},
      {"[judges.a]\nplugin = \"\"\n", ":2:10: 'plugin' must name a judge component"},
      {"[judges.a]\noptions = 3\n", ":2:11: 'options' must be a table of option = value"},
      {"[judges.a]\noptions = { votes = [1, 2] }\n",
       ":2:21: option 'votes' must be a bool, number or string"},
      {"[judges]\na = 3\n", ":2:5: [judges.a] must be a table"},
      {"judges = 3\n", ":1:10: [judges] must hold [judges.NAME] tables"},
      {"[judges.\"a,b\"]\n", "a judge name cannot be empty or hold ','"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const auto file = write(dir, c.text);
    const std::string message = error_of(file);
    CHECK(message.find(file.string()) == 0);
    CHECK(message.find(c.message) != std::string::npos);
  }
}

TEST_CASE("a judge record is written with its verdict fields and read back the same") {
  core::record r;
  r.id = "q1";
  r.db_id = "shop";
  r.system = "sys";
  r.technique = "judge:adherence";
  core::judge_fields j;
  j.label = 1;
  j.confidence = 66.5;
  j.votes = {1, 1, 0};
  j.rationales = {"fine", "ok", "wrong \"table\""};
  j.prompt_tokens = 30;
  j.completion_tokens = 12;
  j.judge_ms = 1.25;
  r.judgement = j;
  r.scores.extra.push_back({"confidence_source", std::string("votes")});
  std::string line;
  core::append_record_json(line, r, true);
  const auto parsed = nlohmann::json::parse(line);
  CHECK(parsed["technique"] == "judge:adherence");
  CHECK(parsed["status"] == "ok");
  CHECK(parsed["EX"].is_null());
  CHECK(parsed["label"] == 1);
  CHECK(parsed["confidence"] == 66.5);
  CHECK(parsed["votes"] == nlohmann::json::array({1, 1, 0}));
  CHECK(parsed["rationales"][2] == "wrong \"table\"");
  CHECK(parsed["prompt_tokens"] == 30);
  CHECK(parsed["completion_tokens"] == 12);
  CHECK(parsed["judge_ms"] == 1.25);
  CHECK(parsed["confidence_source"] == "votes");

  core::record back;
  REQUIRE(core::record_from_json(parsed, back));
  REQUIRE(back.judgement);
  CHECK(back.judgement->label == 1);
  CHECK(back.judgement->confidence == 66.5);
  CHECK(back.judgement->votes == j.votes);
  CHECK(back.judgement->rationales == j.rationales);
  CHECK(back.judgement->prompt_tokens == 30);
  REQUIRE(back.scores.extra.size() == 1);
  CHECK(back.scores.extra[0].first == "confidence_source");
  std::string again;
  core::append_record_json(again, back, true);
  CHECK(again == line);

  // judge_error: no label, the message kept.
  core::record failed = r;
  failed.status = core::example_status::judge_error;
  failed.error = "judge_error: HTTP 503";
  failed.judgement->label.reset();
  failed.judgement->confidence.reset();
  std::string failed_line;
  core::append_record_json(failed_line, failed, true);
  const auto f = nlohmann::json::parse(failed_line);
  CHECK(f["status"] == "judge_error");
  CHECK(f["label"].is_null());
  CHECK(f["confidence"].is_null());
  core::record failed_back;
  REQUIRE(core::record_from_json(f, failed_back));
  CHECK(failed_back.status == core::example_status::judge_error);
}

TEST_CASE("the summary compares each judge's labels with execution_accuracy's EX of the same example") {
  core::run_summary summary;
  const auto add = [&](const std::string& id, std::optional<double> ex, std::optional<int> label,
                       core::example_status status = core::example_status::ok) {
    core::record t;
    t.id = id;
    t.technique = "execution_accuracy";
    t.scores.ex = ex;
    summary.add(t);
    core::record j;
    j.id = id;
    j.technique = "judge:a";
    j.status = status;
    core::judge_fields f;
    f.label = label;
    f.confidence = label ? std::optional<double>(80.0) : std::nullopt;
    f.prompt_tokens = 10;
    f.completion_tokens = 2;
    j.judgement = f;
    summary.add(j);
  };
  add("1", 1.0, 1);
  add("2", 1.0, 1);
  add("3", 0.0, 1);
  add("4", 1.0, 0);
  add("5", 0.0, 0);
  add("6", std::nullopt, 1);                                       // db_missing: not compared
  add("7", 1.0, std::nullopt, core::example_status::judge_error);  // no label: not compared
  REQUIRE(summary.judge_groups().size() == 1);
  const auto& g = summary.judge_groups()[0];
  CHECK(g.count == 7);
  CHECK(g.labelled == 6);
  CHECK(g.mean_label() == doctest::Approx(4.0 / 6));
  CHECK(g.versus_ex == std::array<std::size_t, 4>{2, 1, 1, 1});
  CHECK(g.agreement() == doctest::Approx(3.0 / 5));
  CHECK(g.prompt_tokens == 70);
  const auto j = summary.to_json(7, 0.0);
  CHECK(j["judges"][0]["agreement_with_ex"]["compared"] == 5);
  CHECK(j["judges"][0]["statuses"]["judge_error"] == 1);
  CHECK(j["techniques"].size() == 1);
  CHECK(summary.judges_table().find("2 1 1 1") != std::string::npos);
}

TEST_CASE("Spider questions come from dev.json by gold line, with the db_id checked") {
  test::temp_dir dir;
  const auto questions = write(
      dir, R"([{"db_id": "a", "question": "first?"}, {"db_id": "b", "question": "second?"}])", "dev.json");
  std::vector<core::example> ex(2);
  ex[0].item = "0";
  ex[0].db_id = "a";
  ex[1].item = "1";
  ex[1].db_id = "b";
  core::attach_spider_questions(ex, questions);
  CHECK(ex[0].question == "first?");
  CHECK(ex[1].question == "second?");
  CHECK(core::spider_questions_next_to(dir.path() / "gold.sql") == questions);
  CHECK(!core::spider_questions_next_to(dir.path() / "sub" / "gold.sql"));

  ex[1].db_id = "c";
  CHECK(test::usage_error_of([&] {
          core::attach_spider_questions(ex, questions);
        }).find("entry 1 is about db_id 'b' but gold line 2 is about 'c'") != std::string::npos);
  ex[1].db_id = "b";
  ex.emplace_back();
  ex[2].item = "2";
  CHECK(test::usage_error_of([&] { core::attach_spider_questions(ex, questions); }).find("is missing") !=
        std::string::npos);
}
