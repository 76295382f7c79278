// The standalone fake_openai program (for demos and shell tests): it starts, reports its port, and
// serves deterministic embeddings and verdicts to the real plugins.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include <sqlmorph/embedder.hpp>
#include <sqlmorph/judge.hpp>

#include "openai_replies.hpp"
#include "test_support.hpp"

extern char** environ;

using namespace sqlmorph;

namespace {

// Runs fake_openai until destroyed.
class fake_openai_process {
 public:
  explicit fake_openai_process(const std::filesystem::path& port_file) {
    const std::string program = SQLMORPH_TEST_FAKE_OPENAI;
    std::vector<std::string> args = {program, "--port-file", port_file.string(), "--dimensions", "6"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const int rc = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE_MESSAGE(rc == 0, "cannot start ", program);
    for (int i = 0; i < 200 && !std::filesystem::exists(port_file); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    REQUIRE_MESSAGE(std::filesystem::exists(port_file), "fake_openai wrote no port file");
    std::ifstream(port_file) >> port_;
  }
  ~fake_openai_process() { stop(); }

  int port() const { return port_; }
  int stop() {
    if (pid_ <= 0) return status_;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return status_;
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int status_ = -1;
};

}  // namespace

TEST_CASE("fake_openai serves deterministic embeddings and verdicts to the plugins, and stops on SIGTERM") {
  test::temp_dir dir;
  fake_openai_process server(dir.path() / "port");
  REQUIRE(server.port() > 0);
  const std::string base_url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1";

  const auto e = test::registry().create<embedder>(
      core::component_spec("openai").with("base_url", base_url).with("api_key_env", std::string()));
  const std::vector<std::string> texts = {"singer", "concert", "stadium"};
  const embedding_outcome vectors = e->embed(texts);
  REQUIRE_MESSAGE(vectors.ok, vectors.error);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    CHECK(vectors.vectors[i] == test::openai_replies::vector_for(texts[i], 6));
  }

  const auto j = test::registry().create<judge>(core::component_spec("sql_adherence")
                                                    .with("base_url", base_url)
                                                    .with("api_key_env", std::string())
                                                    .with("use_n", true)
                                                    .with("logprobs", true));
  judge_request r;
  r.question = "How many singers are there?";
  r.sql = "SELECT count(*) FROM singer";
  r.dialect = "sqlite";
  const judge_verdict first = j->evaluate(r);
  REQUIRE_MESSAGE(first.ok, first.error);
  CHECK(first.votes.size() == 5);
  const judge_verdict second = j->evaluate(r);
  CHECK(second.votes == first.votes);  // deterministic per prompt
  CHECK(second.confidence == first.confidence);

  CHECK(server.stop() == 0);
}
