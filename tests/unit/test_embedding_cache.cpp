// The embedding configuration ([embedding], [embedders.NAME]), the cache every embedder is wrapped
// in (de-duplication, batching, memory LRU, the shared SQLite file) and the registry's embedder
// aliases.

#include <doctest/doctest.h>

#include <fstream>
#include <mutex>
#include <thread>

#include <sqlmorph/column_matcher.hpp>

#include "config/config.hpp"
#include "embeddings/caching_embedder.hpp"
#include "embeddings/embedding_setup.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

// Counts its calls and the texts it saw; vector = {length, first byte}.
class counting_embedder final : public embedder {
 public:
  explicit counting_embedder(std::size_t batch) : batch_(batch) {}
  std::string model_id() const override { return "counting-v1"; }
  std::size_t max_batch() const noexcept override { return batch_; }
  std::size_t calls() const {
    const std::lock_guard lock(mutex_);
    return calls_;
  }
  std::vector<std::string> seen() const {
    const std::lock_guard lock(mutex_);
    return seen_;
  }

 protected:
  embedding_outcome do_embed_(std::span<const std::string> texts) const override {
    const std::lock_guard lock(mutex_);
    ++calls_;
    embedding_outcome out;
    if (texts.size() > batch_) {
      out.ok = false;
      out.error = "batch too large";
      return out;
    }
    for (const std::string& t : texts) {
      seen_.push_back(t);
      out.vectors.push_back(
          {static_cast<double>(t.size()), t.empty() ? 0.0 : static_cast<double>(t[0]) + 0.25});
    }
    return out;
  }

 private:
  std::size_t batch_;
  mutable std::mutex mutex_;
  mutable std::size_t calls_ = 0;
  mutable std::vector<std::string> seen_;
};

std::filesystem::path write(const test::temp_dir& dir, const std::string& text) {
  const auto file = dir.path() / "sqlmorph.toml";
  std::ofstream(file) << text;
  return file;
}

}  // namespace

TEST_CASE("embedding config: defaults, values, named embedders") {
  const core::config d = core::default_config();
  CHECK(d.embedding.embedder == "hash_trigram");
  CHECK(!d.embedding.cache);
  CHECK(d.embedding.memory_entries == 10000);

  test::temp_dir dir;
  const core::config c =
      core::load_config(write(dir,
                              "[embedding]\nembedder = \"small\"\ncache = \"emb/cache.sqlite\"\n"
                              "memory_entries = 5\n"
                              "[embedders.small]\nplugin = \"openai\"\noptions = { model = \"m\", "
                              "max_batch = 16, base_url = \"http://127.0.0.1:1/v1\" }\n"
                              "[embedders.hash_trigram]\n"));
  CHECK(c.embedding.embedder == "small");
  CHECK(c.embedding.cache == dir.path() / "emb/cache.sqlite");
  CHECK(c.embedding.memory_entries == 5);
  REQUIRE(c.embedding.embedders.size() == 2);
  CHECK(c.embedding.embedders[0].name == "small");
  CHECK(c.embedding.embedders[0].component == "openai");
  CHECK(std::get<std::int64_t>(c.embedding.embedders[0].options.at("max_batch")) == 16);
  CHECK(c.embedding.embedders[1].component == "hash_trigram");

  const core::config off = core::load_config(write(dir, "[embedding]\ncache = false\n"));
  CHECK(off.embedding.cache_disabled);
}

TEST_CASE("embedding config: unknown keys and wrong types are errors with file:line") {
  test::temp_dir dir;
  const auto error_of = [&](const std::string& text) {
    const auto file = write(dir, text);
    return test::usage_error_of([&] { core::load_config(file); });
  };
  CHECK(error_of("[embedding]\nembeder = \"x\"\n").find(":2:1: unknown key 'embeder' in [embedding]") !=
        std::string::npos);
  CHECK(error_of("[embedding]\nmemory_entries = -1\n").find(":2:") != std::string::npos);
  CHECK(error_of("[embedding]\ncache = true\n").find(":2:") != std::string::npos);
  CHECK(error_of("[embedders.x]\nplugin = \"openai\"\nmodel = \"m\"\n")
            .find(":3:1: unknown key 'model' in [embedders.x]") != std::string::npos);
  CHECK(error_of("[embedders.default]\n").find("reserved") != std::string::npos);
}

TEST_CASE("embedding cache file: flags over the file over the gold cache folder") {
  core::embedding_config c;
  using core::embedding_cache_file;
  CHECK(!embedding_cache_file(c, std::nullopt, false, std::nullopt));
  CHECK(embedding_cache_file(c, std::nullopt, false, std::filesystem::path("/g")) == "/g/embeddings.sqlite");
  c.cache = "/file.sqlite";
  CHECK(embedding_cache_file(c, std::nullopt, false, std::filesystem::path("/g")) == "/file.sqlite");
  CHECK(embedding_cache_file(c, std::string("/flag.sqlite"), false, std::nullopt) == "/flag.sqlite");
  CHECK(!embedding_cache_file(c, std::nullopt, true, std::nullopt));
  c.cache.reset();
  c.cache_disabled = true;
  CHECK(!embedding_cache_file(c, std::nullopt, false, std::filesystem::path("/g")));
}

TEST_CASE("caching embedder: de-duplicates, batches by max_batch, serves repeats from memory") {
  auto inner = std::make_shared<counting_embedder>(3);
  auto settings = std::make_shared<core::embedding_cache_settings>(std::nullopt, 100);
  const core::caching_embedder e(inner, settings);
  CHECK(e.model_id() == "counting-v1");
  CHECK(e.max_batch() == 3);
  const std::vector<std::string> texts = {"a", "bb", "a", "ccc", "dddd", "bb", "e", "f"};  // 6 distinct
  const embedding_outcome out = e.embed(texts);
  REQUIRE(out.ok);
  REQUIRE(out.vectors.size() == texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i)
    CHECK(out.vectors[i][0] == static_cast<double>(texts[i].size()));
  CHECK(inner->calls() == 2);  // ceil(6 / 3)
  CHECK(inner->seen() == std::vector<std::string>{"a", "bb", "ccc", "dddd", "e", "f"});
  const embedding_outcome again = e.embed(texts);
  REQUIRE(again.ok);
  CHECK(again.vectors == out.vectors);
  CHECK(inner->calls() == 2);
  CHECK(settings->stats().memory_hits == 6);
}

TEST_CASE("caching embedder: the SQLite file is shared across instances and runs, bit for bit") {
  test::temp_dir dir;
  const auto file = dir.path() / "sub" / "embeddings.sqlite";
  const std::vector<std::string> texts = {"x", "yy", "zzz", "x", "\xff invalid UTF-8"};
  embedding_outcome first;
  {
    auto inner = std::make_shared<counting_embedder>(2);
    const core::caching_embedder e(inner, std::make_shared<core::embedding_cache_settings>(file, 0));
    first = e.embed(texts);
    REQUIRE(first.ok);
    CHECK(inner->calls() == 2);  // 4 distinct texts, 2 per batch
  }
  CHECK(std::filesystem::exists(file));
  auto inner = std::make_shared<counting_embedder>(2);
  auto settings = std::make_shared<core::embedding_cache_settings>(file, 0);  // no memory: disk only
  const core::caching_embedder e(inner, settings);
  const embedding_outcome second = e.embed(texts);
  REQUIRE(second.ok);
  CHECK(second.vectors == first.vectors);
  CHECK(inner->calls() == 0);
  CHECK(settings->stats().disk_hits == 4);
  // A new text only costs itself.
  const std::vector<std::string> more = {"x", "new"};
  REQUIRE(e.embed(more).ok);
  CHECK(inner->seen() == std::vector<std::string>{"new"});
}

TEST_CASE("caching embedder: the memory cache is bounded and the wrapper is thread-safe") {
  test::temp_dir dir;
  auto inner = std::make_shared<counting_embedder>(8);
  auto settings = std::make_shared<core::embedding_cache_settings>(dir.path() / "e.sqlite", 4);
  const core::caching_embedder e(inner, settings);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) {
        std::vector<std::string> texts;
        for (int k = 0; k < 10; ++k) texts.push_back("text " + std::to_string((round * 7 + k + t) % 30));
        const embedding_outcome out = e.embed(texts);
        CHECK(out.ok);
        for (std::size_t k = 0; k < texts.size(); ++k)
          CHECK(out.vectors[k][0] == static_cast<double>(texts[k].size()));
      }
    });
  }
  for (auto& th : threads) th.join();
  // Every text reached the embedder at least once, and the disk cache holds them all.
  auto probe_inner = std::make_shared<counting_embedder>(8);
  const core::caching_embedder probe(
      probe_inner, std::make_shared<core::embedding_cache_settings>(dir.path() / "e.sqlite", 0));
  std::vector<std::string> all;
  for (int k = 0; k < 30; ++k) all.push_back("text " + std::to_string(k));
  REQUIRE(probe.embed(all).ok);
  CHECK(probe_inner->calls() == 0);
}

TEST_CASE("embedder aliases: [embedders.NAME], default, and the cache around every embedder") {
  core::component_registry registry;
  registry.load_directories({test::plugin_dir()});
  core::embedding_config config;
  config.embedder = "mine";
  config.embedders.push_back({"mine", "hash_trigram", {}, "test"});
  config.embedders.push_back(
      {"remote",
       "openai",
       {{"base_url", std::string("http://127.0.0.1:9/v1")}, {"api_key_env", std::string("")}},
       "test"});
  const auto settings = core::install_embeddings(registry, config, std::nullopt);
  const auto mine = registry.create<embedder>(core::component_spec("mine"));
  CHECK(mine->model_id() == "hash-trigram-v1");
  CHECK(dynamic_cast<const core::caching_embedder*>(mine.get()) != nullptr);
  // `default` is [embedding] embedder: the same instance.
  CHECK(registry.create<embedder>(core::component_spec("default")) == mine);
  CHECK(registry.instance_key("embedder", core::component_spec("default")) ==
        registry.instance_key("embedder", core::component_spec("mine")));
  // The caller's options go over the alias's.
  const auto remote =
      registry.create<embedder>(core::component_spec("remote").with("model", std::string("m2")));
  CHECK(remote->model_id().find("127.0.0.1:9") != std::string::npos);
  CHECK(remote->model_id().find("m2") != std::string::npos);
  CHECK(test::usage_error_of([&] {
          registry.create<embedder>(core::component_spec("nope"));
        }).find("unknown embedder 'nope'") != std::string::npos);
  // A semantic column matcher without an embedder option gets the default.
  CHECK_NOTHROW(registry.create<column_matcher>(core::component_spec("semantic")));
}
