#pragma once
// The JSON object of run summaries (nlohmann/json): keys keep their insertion order, values are numbers, strings,
// booleans, number lists or nested objects. Non-finite numbers are written as null (JSON has no NaN).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace eddy::io {

class JsonObject {
 public:
  /// Sets `key` (replacing an earlier value of the same key); returns *this for chaining.
  JsonObject& set(const std::string& key, double value);
  JsonObject& set(const std::string& key, long long value);
  JsonObject& set(const std::string& key, int value) { return set(key, static_cast<long long>(value)); }
  JsonObject& set(const std::string& key, bool value);
  JsonObject& set(const std::string& key, const std::string& value);
  JsonObject& set(const std::string& key, const char* value) { return set(key, std::string(value)); }
  JsonObject& set(const std::string& key, const std::vector<double>& values);
  JsonObject& set(const std::string& key, const std::vector<long long>& values);
  JsonObject& set(const std::string& key, const std::vector<std::string>& values);
  JsonObject& set(const std::string& key, const JsonObject& value);

  /// The object as JSON text, indented by two spaces per level.
  std::string dump() const;

 private:
  nlohmann::ordered_json json_ = nlohmann::ordered_json::object();
};

}  // namespace eddy::io
