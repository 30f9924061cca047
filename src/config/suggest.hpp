#pragma once
// "Did you mean ...?" for misspelt keys and values.
#include <string>
#include <string_view>
#include <vector>

namespace eddy::config {

/// Levenshtein distance between two words (insertions, deletions and substitutions each cost 1).
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` if it is close enough to be a likely typo, else "".
std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates);

/// "a, b, c": the candidates joined for a message.
std::string join_words(const std::vector<std::string>& words);

}  // namespace eddy::config
