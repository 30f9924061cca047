#include "config/source_map.hpp"

namespace eddy::config {
namespace {

// True when `prefix` is `path` or one of its parent sections ("a.b" is a prefix of "a.b.c", not of "a.bc").
bool is_key_prefix(const std::string& prefix, const std::string& path) {
  if (prefix.size() > path.size() || path.compare(0, prefix.size(), prefix) != 0) return false;
  return prefix.size() == path.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

// "a.b" for "a.b.c" and for "a.b[2]"; "" at the top.
std::string parent_of(const std::string& path) {
  if (!path.empty() && path.back() == ']') return path.substr(0, path.rfind('['));
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

}  // namespace

void SourceMap::record_line(const std::string& path, int line) { lines_[path] = line; }

void SourceMap::record_override(const std::string& path, const std::string& text) {
  overrides_.emplace_back(path, text);
}

std::string SourceMap::where(const std::string& path) const {
  // The last override wins, as it does for the value itself.
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    if (is_key_prefix(it->first, path) || is_key_prefix(path, it->first)) {
      constexpr std::size_t longest = 120;  // a message quotes no more of an override than fits a line
      const std::string& text = it->second;
      return "--set " + (text.size() > longest ? text.substr(0, longest) + "..." : text);
    }
  }
  for (std::string key = path; !key.empty(); key = parent_of(key)) {
    if (auto found = lines_.find(key); found != lines_.end()) {
      return source_ + ", line " + std::to_string(found->second);
    }
  }
  return source_;
}

std::string SourceMap::message(const std::string& path, const std::string& problem) const {
  return (path.empty() ? std::string() : path + " ") + "(" + where(path) + "): " + problem;
}

}  // namespace eddy::config
