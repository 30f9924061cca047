#pragma once
// Deck expressions: a formula of the coordinates x, y, z, the time t, the constant pi and the deck's own constants
// (section `constants`), with muparser's operators and functions (sin, cos, tan, exp, log, sqrt, abs, sinh, tanh,
// min, max, the ternary ?:, ...). Compiled once on the host, where a malformed one is refused with its column and what
// is allowed, and evaluated on the host (initial fields).
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace eddy::config {

/// The deck's constants, in the order given: name and value.
using Constants = std::vector<std::pair<std::string, double>>;

/// The names an expression may use besides its functions: x, y, z, t, pi and the constants.
std::string expression_names(const Constants& constants);

/// True when `name` is one an expression gives a meaning of its own: x, y, z, t, pi or a function's.
bool expression_reserves(const std::string& name);

class Expression {
 public:
  /// Compiles `text`; throws eddy::Error with a message (no key: the caller names it) giving the column and the name
  /// or operator at fault and what is allowed.
  Expression(const std::string& text, const Constants& constants);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  /// The value at point (x, y, z) and time t.
  double operator()(double x, double y, double z, double t) const;
  /// The text as given.
  const std::string& text() const { return text_; }
  /// True when the expression reads the variable `name` (x, y, z or t).
  bool uses(const std::string& name) const;

 private:
  struct Compiled;
  std::string text_;
  std::unique_ptr<Compiled> compiled_;
};

/// When values from expressions were last evaluated: steady ones once, time-dependent ones (reading t) at every new
/// time.
struct EvaluationTime {
  bool unsteady = false;  ///< an expression reads t
  bool evaluated = false;
  double at = 0;

  /// True when values evaluated as recorded are wrong or missing at time t.
  bool stale(double t) const { return !evaluated || (unsteady && at != t); }
  /// Records an evaluation at time t.
  void mark(double t) {
    evaluated = true;
    at = t;
  }
};

}  // namespace eddy::config
