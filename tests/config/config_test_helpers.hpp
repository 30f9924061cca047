#pragma once
// Helpers shared by the deck tests.
#include "config/load.hpp"
#include "core/error.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

/// Expects `part` somewhere in the string `text`.
#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "expected '" << (part) << "' in: " << (text)
/// Expects `part` nowhere in the string `text`.
#define EXPECT_LACKS(text, part) \
  EXPECT_EQ(std::string(text).find(part), std::string::npos) << "did not expect '" << (part) << "' in: " << (text)

namespace eddy::config::testing {

/// The repository root (ctest sets EDDY_SOURCE_DIR).
inline std::string source_dir() {
  const char* dir = std::getenv("EDDY_SOURCE_DIR");
  return dir ? dir : ".";
}

/// The message of the eddy::Error that loading `yaml` must throw ("" and a test failure if it loads).
inline std::string load_error(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    load_text(yaml, "deck.yaml", overrides);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an error for deck:\n" << yaml;
  return "";
}

}  // namespace eddy::config::testing
