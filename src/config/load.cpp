#include "config/load.hpp"

#include "config/embedded_deck.hpp"
#include "config/overrides.hpp"
#include "config/parse.hpp"
#include "config/validate.hpp"
#include "core/error.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace eddy::config {

namespace {

/// True when `yaml` holds nothing but blank lines, comments and document markers.
bool holds_no_keys(std::string_view yaml) {
  std::istringstream lines{std::string(yaml)};
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::string_view rest = std::string_view(line).substr(first);
    if (rest.starts_with("---") || rest.starts_with("...")) continue;
    return false;
  }
  return true;
}

/// Where a line of `yaml` is indented with a tab, which YAML does not allow: a note naming the first such line.
std::string tab_hint(std::string_view yaml) {
  std::size_t line = 1, start = 0;
  while (start < yaml.size()) {
    const std::size_t end = std::min(yaml.find('\n', start), yaml.size());
    const std::string_view text = yaml.substr(start, end - start);
    const std::size_t indent = text.find_first_not_of(" \t");
    if (text.substr(0, std::min(indent, text.size())).find('\t') != std::string_view::npos) {
      return " (line " + std::to_string(line) + " is indented with a tab; YAML allows only spaces)";
    }
    start = end + 1;
    ++line;
  }
  return "";
}

/// Where the brackets of `yaml` nest deeper than any deck needs, which the YAML parser gives up on: a note saying so.
std::string depth_hint(std::string_view yaml) {
  int depth = 0, deepest = 0;
  for (const char c : yaml) {
    if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    if (c == ']' || c == '}') --depth;
  }
  constexpr int deepest_allowed = 64;
  if (deepest <= deepest_allowed) return "";
  return " (brackets nested " + std::to_string(deepest) + " deep; a deck nests a few, and the YAML parser stops at " +
         "a few thousand)";
}

}  // namespace

Deck load(const std::string& path, const std::vector<std::string>& overrides) {
  if (std::filesystem::is_directory(path)) {
    throw Error("deck '" + path + "' is a folder; allowed: a deck file, such as inputs/cavity2d_re100.yaml");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("cannot open deck '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw Error("cannot read deck '" + path + "': " + std::strerror(errno));
  if (holds_no_keys(text.str())) {
    throw Error(
        "deck '" + path +
        "' is empty: it would run every default, a fluid at rest in a closed box; start from a deck in inputs/, "
        "or run eddy without a deck for the default lid-driven cavity");
  }
  return load_text(text.str(), path, overrides);
}

Deck load_text(std::string_view yaml, const std::string& source_name, const std::vector<std::string>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::ParserException& e) {
    throw Error(source_name + ", line " + std::to_string(e.mark.line + 1) + ", column " +
                std::to_string(e.mark.column + 1) + ": malformed YAML: " + e.msg + tab_hint(yaml) + depth_hint(yaml));
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);  // an empty deck means every default
  if (!root.IsMap()) {
    throw Error(source_name + ": a deck is a map of sections (name:, domain:, physics:, ...), not a " +
                (root.IsSequence() ? std::string("list") : "single value"));
  }
  SourceMap where(source_name);
  apply_overrides(root, overrides, where);
  Deck deck = parse_deck(root, where);
  validate(deck, where);
  deck.source = source_name;
  return deck;
}

Deck load_default(const std::vector<std::string>& overrides) {
  return load_text(embedded_default_deck(), embedded_deck_name, overrides);
}

}  // namespace eddy::config
