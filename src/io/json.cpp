#include "io/json.hpp"

#include <cmath>
#include <cstdio>

namespace eddy::io {

namespace {
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}
}  // namespace

std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(ch)));
          out += escaped;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

JsonObject& JsonObject::put(const std::string& key, Value value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  entries_.emplace_back(key, std::move(value));
  return *this;
}

JsonObject& JsonObject::set(const std::string& key, double value) { return put(key, number(value)); }
JsonObject& JsonObject::set(const std::string& key, long long value) { return put(key, std::to_string(value)); }
JsonObject& JsonObject::set(const std::string& key, bool value) { return put(key, value ? "true" : "false"); }
JsonObject& JsonObject::set(const std::string& key, const std::string& value) { return put(key, json_quote(value)); }
JsonObject& JsonObject::set(const std::string& key, const JsonObject& value) {
  return put(key, std::make_shared<const JsonObject>(value));
}
JsonObject& JsonObject::set(const std::string& key, const std::vector<double>& values) {
  std::string list = "[";
  for (std::size_t n = 0; n < values.size(); ++n) list += (n > 0 ? ", " : "") + number(values[n]);
  return put(key, list + "]");
}

std::string JsonObject::dump(int indent) const {
  if (entries_.empty()) return "{}";
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  std::string out = "{\n";
  for (std::size_t n = 0; n < entries_.size(); ++n) {
    const auto& [key, value] = entries_[n];
    out += inner + json_quote(key) + ": ";
    if (const auto* scalar = std::get_if<std::string>(&value)) {
      out += *scalar;
    } else {
      out += std::get<std::shared_ptr<const JsonObject>>(value)->dump(indent + 2);
    }
    out += n + 1 < entries_.size() ? ",\n" : "\n";
  }
  return out + std::string(static_cast<std::size_t>(indent), ' ') + "}";
}

}  // namespace eddy::io
