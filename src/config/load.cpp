#include "config/load.hpp"

#include "config/embedded_deck.hpp"
#include "config/overrides.hpp"
#include "config/parse.hpp"
#include "config/validate.hpp"
#include "core/error.hpp"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace eddy::config {

Deck load(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("cannot open deck '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw Error("cannot read deck '" + path + "': " + std::strerror(errno));
  return load_text(text.str(), path, overrides);
}

Deck load_text(std::string_view yaml, const std::string& source_name, const std::vector<std::string>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::ParserException& e) {
    throw Error(source_name + ", line " + std::to_string(e.mark.line + 1) + ", column " +
                std::to_string(e.mark.column + 1) + ": malformed YAML: " + e.msg);
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
