#pragma once
// The one error type of eddy: a message meant for the user, raised on the host, caught in main.
#include <stdexcept>
#include <string>

namespace eddy {

/// Error raised for bad input or an unrecoverable run-time failure; its message is printed as is.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws eddy::Error with the message when the condition does not hold.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw Error(message);
}

}  // namespace eddy
