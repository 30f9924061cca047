#pragma once
// Typed reading of deck values with located messages: the helpers shared by the deck parser's sections.
#include "config/expression.hpp"
#include "config/names.hpp"
#include "config/schema.hpp"
#include "config/source_map.hpp"
#include "config/suggest.hpp"
#include "core/error.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <type_traits>

namespace eddy::config {

/// The value given, as the user would write it: 'abc' for a scalar, [1, 2] or {a: 1} otherwise.
inline std::string describe(const YAML::Node& node) {
  constexpr std::size_t longest = 120;  // a message quotes no more of a value than fits a line
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  std::string text;
  if (node.IsScalar()) {
    text = node.Scalar();
  } else {
    YAML::Emitter out;
    out << YAML::Flow << node;
    text = out.c_str();
  }
  if (text.size() > longest) {
    text = text.substr(0, longest) + "...";
    if (node.IsSequence()) text += " (" + std::to_string(node.size()) + " entries)";
  }
  return node.IsScalar() ? "'" + text + "'" : text;
}

/// "a list of 3 numbers (one per axis in 3D)".
inline std::string list_words(int count, const char* what) {
  return "a list of " + std::to_string(count) + " " + what + " (one per axis in " + std::to_string(count) + "D)";
}

/// Reads scalars, enums and per-axis lists from deck nodes; every failure names the key and where it was given.
class YamlReader {
 public:
  explicit YamlReader(SourceMap& where) : where_(where) {}

  /// Throws the located message "path (where): problem".
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw Error(where_.message(path, problem));
  }

  /// Checks that `node` (the section at `path`) is a map of known, distinct keys; records the line of each key.
  void check_section(const YAML::Node& node, const std::string& path) {
    if (!node.IsMap()) fail(path, "expected a section of keys, got " + describe(node));
    std::set<std::string> seen;
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) fail(path, "a key must be a plain word, got " + describe(entry.first));
      const std::string key = entry.first.Scalar();
      const std::string key_path_text = key_path(path, key);
      if (entry.first.Mark().line >= 0) where_.record_line(key_path_text, entry.first.Mark().line + 1);
      const auto& allowed = *section_keys(path);
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        fail(key_path_text, unknown_key_problem(path, key));
      }
      if (!seen.insert(key).second) fail(key_path_text, "the key '" + key + "' is given twice");
    }
  }

  /// The section `key` of `parent` (checked), or an empty map when it is not given.
  YAML::Node section(const YAML::Node& parent, const std::string& key) {
    const auto node = parent[key];
    if (!node) return YAML::Node(YAML::NodeType::Map);
    check_section(node, key);
    return node;
  }

  /// A scalar of type T, or a message saying `expected`.
  template <class T>
  T read_scalar(const YAML::Node& node, const std::string& path, const std::string& expected) {
    if (!node.IsScalar()) fail(path, "expected " + expected + ", got " + describe(node));
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      fail(path, "expected " + expected + ", got " + describe(node));
    }
  }

  /// A finite number.
  double read_number(const YAML::Node& node, const std::string& path) {
    const double value = read_scalar<double>(node, path, "a number");
    if (!std::isfinite(value)) fail(path, "expected a finite number, got " + describe(node));
    return value;
  }
  /// An integer.
  int read_int(const YAML::Node& node, const std::string& path) { return read_scalar<int>(node, path, "an integer"); }
  /// A long integer.
  long long read_long(const YAML::Node& node, const std::string& path) {
    return read_scalar<long long>(node, path, "an integer");
  }
  /// true or false.
  bool read_bool(const YAML::Node& node, const std::string& path) {
    return read_scalar<bool>(node, path, "true or false");
  }
  /// A text value.
  std::string read_string(const YAML::Node& node, const std::string& path) {
    return read_scalar<std::string>(node, path, "a text value");
  }

  /// The text of an expression (config/expression.hpp), compiled to check it against `constants`.
  std::string read_expression(const YAML::Node& node, const std::string& path, const Constants& constants) {
    const std::string text = read_string(node, path);
    try {
      (void)Expression(text, constants);
    } catch (const Error& e) {
      fail(path, e.what());
    }
    return text;
  }

  /// An enum by its YAML name, suggesting the nearest name on a typo.
  template <class Enum>
  Enum read_enum(const YAML::Node& node, const std::string& path) {
    const auto allowed = allowed_names<Enum>();
    const std::string expected = "one of " + join_words(allowed);
    const auto name = read_scalar<std::string>(node, path, expected);
    if (auto value = from_string<Enum>(name)) return *value;
    std::string problem = "got " + describe(node) + "; allowed: " + join_words(allowed);
    if (auto guess = nearest_word(name, allowed); !guess.empty()) problem += " (did you mean '" + guess + "'?)";
    fail(path, problem);
  }

  /// A list of exactly `count` numbers (or integers); entries past `count` keep `fill`.
  template <class T>
  std::array<T, 3> read_list(const YAML::Node& node, const std::string& path, int count, T fill, const char* what) {
    const std::string expected = list_words(count, what);
    if (!node.IsSequence() || static_cast<int>(node.size()) != count) {
      fail(path, "expected " + expected + ", got " + describe(node) +
                     (count == 2 ? " (domain.dimensions is 2)" : " (domain.dimensions is 3)"));
    }
    std::array<T, 3> values{fill, fill, fill};
    for (int a = 0; a < count; ++a) {
      if (node[a].Mark().line >= 0) where_.record_line(path + "[" + std::to_string(a) + "]", node[a].Mark().line + 1);
      if constexpr (std::is_same_v<T, double>) {
        values[a] = read_number(node[a], path + "[" + std::to_string(a) + "]");
      } else if constexpr (std::is_same_v<T, std::string>) {
        values[a] = read_string(node[a], path + "[" + std::to_string(a) + "]");
      } else {
        values[a] = read_int(node[a], path + "[" + std::to_string(a) + "]");
      }
    }
    return values;
  }

  /// Problem dimension, which sets the length of per-axis lists.
  int dimensions() const { return dims_; }
  /// The deck's constants, once read (for expressions).
  const Constants& constants() const { return constants_; }
  /// Records the line of a list entry or key that check_section does not see.
  void record_line(const std::string& path, const YAML::Node& node) {
    if (node.Mark().line >= 0) where_.record_line(path, node.Mark().line + 1);
  }

 protected:
  SourceMap& where_;
  int dims_ = 2;
  Constants constants_;  ///< the deck's constants, for the expressions read after them
};

}  // namespace eddy::config
