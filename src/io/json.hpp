#pragma once
// A small JSON object writer for run summaries: keys keep their insertion order, values are numbers, strings,
// booleans, number lists or nested objects. Non-finite numbers are written as null (JSON has no NaN).
#include <memory>
#include <string>
#include <utility>
#include <variant>
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
  JsonObject& set(const std::string& key, const JsonObject& value);

  /// The object as JSON text, indented by two spaces per level.
  std::string dump(int indent = 0) const;

 private:
  using Value = std::variant<std::string, std::shared_ptr<const JsonObject>>;  // serialised scalar, or nested
  JsonObject& put(const std::string& key, Value value);
  std::vector<std::pair<std::string, Value>> entries_;
};

/// `text` as a quoted JSON string with escapes.
std::string json_quote(const std::string& text);

}  // namespace eddy::io
