#include "openai_embedder.hpp"

#include <stdexcept>

namespace sqlmorph::openai {

namespace {

std::size_t read_max_batch(const option_values& options) {
  return static_cast<std::size_t>(options.get_int_in("max_batch", 1, 100000));
}

std::string read_model(const option_values& options) {
  std::string m = options.get_string("model");
  if (m.empty()) throw std::invalid_argument("option model must name the embedding model");
  return m;
}

}  // namespace

openai_embedder::openai_embedder(const option_values& options)
    : model_(read_model(options)),
      max_batch_(read_max_batch(options)),
      dimensions_(options.get_int("dimensions")),
      endpoint_(read_endpoint_settings(options)) {
  if (dimensions_ < 0) throw std::invalid_argument("option dimensions must be >= 0 (0: the model's own)");
}

std::string openai_embedder::model_id() const {
  std::string id = "openai:" + endpoint_.settings().base_url + "|" + model_;
  if (dimensions_ > 0) id += "|dim=" + std::to_string(dimensions_);
  return id;
}

embedding_outcome openai_embedder::do_embed_(std::span<const std::string> texts) const {
  embedding_outcome out;
  out.vectors.reserve(texts.size());
  for (std::size_t begin = 0; begin < texts.size(); begin += max_batch_) {
    const std::size_t count = std::min(max_batch_, texts.size() - begin);
    embedding_outcome batch = embed_batch_(texts.subspan(begin, count));
    if (!batch.ok) return batch;
    for (auto& v : batch.vectors) out.vectors.push_back(std::move(v));
  }
  return out;
}

embedding_outcome openai_embedder::embed_batch_(std::span<const std::string> texts) const {
  embedding_outcome out;
  nlohmann::json request = {{"model", model_}, {"input", nlohmann::json::array()}};
  for (const std::string& t : texts) request["input"].push_back(t);
  if (dimensions_ > 0) request["dimensions"] = dimensions_;

  const api_reply reply = endpoint_.post("/embeddings", request);
  const std::string where = "POST " + endpoint_.url("/embeddings") + ": ";
  auto fail = [&](std::string message) {
    out.ok = false;
    out.error = std::move(message);
    out.vectors.clear();
    return out;
  };
  if (!reply.ok) return fail(reply.error);

  const nlohmann::json* data =
      reply.body.is_object() && reply.body.contains("data") ? &reply.body["data"] : nullptr;
  if (data == nullptr || !data->is_array()) return fail(where + "the reply has no 'data' array");
  if (data->size() != texts.size()) {
    return fail(where + "asked for " + std::to_string(texts.size()) + " embeddings, got " +
                std::to_string(data->size()));
  }

  out.vectors.assign(texts.size(), {});
  std::vector<bool> seen(texts.size(), false);
  std::size_t width = 0;
  for (std::size_t i = 0; i < data->size(); ++i) {
    const nlohmann::json& item = (*data)[i];
    // Servers usually answer in input order, but only `index` says which input a vector is for.
    std::size_t index = i;
    if (item.contains("index")) {
      if (!item["index"].is_number_unsigned())
        return fail(where + "item " + std::to_string(i) + " has a bad 'index'");
      index = item["index"].get<std::size_t>();
    }
    if (index >= texts.size() || seen[index]) {
      return fail(where + "item " + std::to_string(i) + " has index " + std::to_string(index) +
                  (index >= texts.size() ? ", outside the batch" : ", given twice"));
    }
    seen[index] = true;
    if (!item.contains("embedding") || !item["embedding"].is_array()) {
      return fail(where + "item " + std::to_string(i) +
                  " has no 'embedding' array (was encoding_format base64?)");
    }
    std::vector<double>& v = out.vectors[index];
    v.reserve(item["embedding"].size());
    for (const nlohmann::json& x : item["embedding"]) {
      if (!x.is_number()) return fail(where + "item " + std::to_string(i) + " has a non-numeric component");
      v.push_back(x.get<double>());
    }
    if (v.empty()) return fail(where + "item " + std::to_string(i) + " is an empty vector");
    if (width == 0) width = v.size();
    if (v.size() != width) {
      return fail(where + "vectors of different lengths in one reply (" + std::to_string(width) + " and " +
                  std::to_string(v.size()) + ")");
    }
  }
  return out;
}

}  // namespace sqlmorph::openai
