// The manifest of the `openai` embedder.

#include <sqlmorph/plugin.hpp>

#include "openai_embedder.hpp"

namespace {

const sqlmorph_option_v1 openai_embedder_options[] = {
    {"base_url", "string", "https://api.openai.com/v1",
     "the API root that /embeddings is appended to, e.g. http://localhost:8000/v1 (vLLM), "
     "http://localhost:11434/v1 (Ollama)"},
    {"model", "string", "text-embedding-3-small", "the embedding model, as the server names it"},
    {"api_key_env", "string", "OPENAI_API_KEY",
     "NAME of the environment variable holding the API key (sent as Authorization: Bearer); \"\" sends none"},
    {"max_batch", "int", "128", "most texts per request"},
    {"dimensions", "int", "0",
     "ask for shorter vectors of this length (models that support it, e.g. OpenAI's text-embedding-3-*); "
     "0: the model's own"},
    {"timeout", "double", "60",
     "seconds one attempt may take (connect, send, receive); each retry has its own"},
    {"max_retries", "int", "4", "retries after a 429, 408, 409, 5xx, timeout or connection failure"},
    {"retry_base_delay", "double", "0.5",
     "seconds before the first retry, doubling each time (capped at 30 s, with jitter); Retry-After wins"},
    {"max_in_flight", "int", "4", "requests in flight at once through this embedder, across threads"}};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY("embedder_openai", "1.0.0",
                        sqlmorph::plugin::component<sqlmorph::openai::openai_embedder>(
                            "openai", "1.0.0", "vectors from any OpenAI-compatible /v1/embeddings endpoint",
                            openai_embedder_options))
