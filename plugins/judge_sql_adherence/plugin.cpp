// The manifest of the `sql_adherence` judge.

#include <sqlmorph/plugin.hpp>

#include "sql_adherence_judge.hpp"

namespace {

const sqlmorph_option_v1 sql_adherence_options[] = {
    {"base_url", "string", "https://api.openai.com/v1",
     "the API root that /chat/completions is appended to, e.g. http://localhost:8000/v1 (vLLM)"},
    {"model", "string", "gpt-4o-mini", "the chat model, as the server names it"},
    {"api_key_env", "string", "OPENAI_API_KEY",
     "NAME of the environment variable holding the API key (sent as Authorization: Bearer); \"\" sends none"},
    {"votes", "int", "5", "how many times the model is asked (k, 1 to 100); the label is the majority"},
    {"temperature", "double", "0.7", "sampling temperature, 0 to 2; must be > 0 when votes > 1"},
    {"use_n", "bool", "false",
     "ask for all votes in one request with n = votes (OpenAI, vLLM); falls back to one request per vote "
     "when the server returns fewer choices"},
    {"logprobs", "bool", "false",
     "request token logprobs; when every vote carries them, confidence = the mean probability of the label's "
     "verdict token instead of the vote share"},
    {"top_logprobs", "int", "5",
     "alternatives per token asked for with logprobs, 0 to 20 (0: the chosen token only)"},
    {"max_tokens", "int", "300", "most tokens of one reply"},
    {"json_mode", "bool", "false", "send response_format = {type: json_object} (servers that support it)"},
    {"prompt_template", "string", "",
     "file holding the prompt ({{question}}, {{sql}}, {{dialect}}, {{schema}}, {{hints}}, "
     "{{#name}}...{{/name}}); "
     "\"\": sql_adherence_prompt.txt next to the plugin"},
    {"malformed_retries", "int", "2", "times a vote is asked again when the reply is not the JSON verdict"},
    {"cache", "string", "",
     "SQLite file caching replies by model, endpoint, temperature, prompt hash and vote; \"\": none"},
    {"timeout", "double", "60",
     "seconds one attempt may take (connect, send, receive); each retry has its own"},
    {"max_retries", "int", "4", "retries after a 429, 408, 409, 5xx, timeout or connection failure"},
    {"retry_base_delay", "double", "0.5",
     "seconds before the first retry, doubling each time (capped at 30 s, with jitter); Retry-After wins"},
    {"max_in_flight", "int", "4", "requests in flight at once through this judge, across all threads"}};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "judge_sql_adherence", "1.0.0",
    sqlmorph::plugin::component<sqlmorph::openai::sql_adherence_judge>(
        "sql_adherence", "1.0.0",
        "an OpenAI-compatible chat model votes k times whether the SQL answers the question",
        sql_adherence_options))
