#pragma once
// The one error type of eddy: a message meant for the user, raised on the host, caught in main.
#include <stdexcept>
#include <string>

namespace eddy {

/// Error raised for bad input or an unrecoverable run-time failure; its message is printed as is.
class Error : public std::runtime_error {
 public:
  /// Where an error is raised: on this rank alone, or on every rank at the same point with the same message (a check
  /// of the deck or the rank count that every rank makes alike, or a failure the ranks agreed on), which rank 0 alone
  /// reports and which needs no rank aborted.
  enum class Ranks { this_one, every };
  explicit Error(const std::string& message, Ranks ranks = Ranks::this_one)
      : std::runtime_error(message), ranks_(ranks) {}
  /// Where the error is raised.
  Ranks ranks() const { return ranks_; }
  /// True when every rank raises this error alike.
  bool on_every_rank() const { return ranks_ == Ranks::every; }

 private:
  Ranks ranks_;
};

/// Throws eddy::Error with the message when the condition does not hold.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw Error(message);
}

/// require() for a check that every rank makes alike, with the same outcome (of the deck and the rank count).
inline void require_alike(bool condition, const std::string& message) {
  if (!condition) throw Error(message, Error::Ranks::every);
}

}  // namespace eddy
