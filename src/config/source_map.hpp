#pragma once
// Where each deck key came from (a line of the deck file, or a --set override), so every message can point at it.
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace eddy::config {

class SourceMap {
 public:
  /// `source` names the deck in messages (its path, or "<embedded default>").
  explicit SourceMap(std::string source = "<deck>") : source_(std::move(source)) {}

  /// Records that the value of key `path` (e.g. "boundary.y_high.type") sits on 1-based `line` of the deck.
  void record_line(const std::string& path, int line);
  /// Records that key `path` was set on the command line by `--set <text>`.
  void record_override(const std::string& path, const std::string& text);
  /// "deck.yaml, line 7", "--set physics.viscosity=-1", or just "deck.yaml" when the key was not given.
  std::string where(const std::string& path) const;
  /// The one-line message for a problem with key `path`: "path (where): problem".
  std::string message(const std::string& path, const std::string& problem) const;
  /// The deck's file name, as messages name it.
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::map<std::string, int> lines_;
  std::vector<std::pair<std::string, std::string>> overrides_;
};

}  // namespace eddy::config
