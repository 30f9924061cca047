#include "io/json.hpp"

namespace eddy::io {

JsonObject& JsonObject::set(const std::string& key, double value) {
  json_[key] = value;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, long long value) {
  json_[key] = value;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, bool value) {
  json_[key] = value;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, const std::string& value) {
  json_[key] = value;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, const std::vector<double>& values) {
  json_[key] = values;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, const std::vector<long long>& values) {
  json_[key] = values;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, const std::vector<std::string>& values) {
  json_[key] = values;
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, const JsonObject& value) {
  json_[key] = value.json_;
  return *this;
}

// Invalid UTF-8 in a string (a deck name from a foreign file system) is replaced rather than thrown at the end of a
// run.
std::string JsonObject::dump() const {
  return json_.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace eddy::io
