#include "config/expression.hpp"

#include "core/error.hpp"

#include <muParser.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace eddy::config {

// The parser holds the addresses of its variables: they live beside it.
struct Expression::Compiled {
  mu::Parser parser;
  std::array<double, 4> point{0, 0, 0, 0};  // x, y, z, t
};

std::string expression_names(const Constants& constants) {
  std::string names = "x, y, z, t, pi";
  for (const auto& [name, value] : constants) names += ", " + name;
  return names;
}

bool expression_reserves(const std::string& name) {
  static const char* const reserved[] = {"x",     "y",     "z",     "t",    "pi",    "_pi",  "_e",   "sin",
                                         "cos",   "tan",   "asin",  "acos", "atan",  "sinh", "cosh", "tanh",
                                         "asinh", "acosh", "atanh", "log2", "log10", "log",  "ln",   "exp",
                                         "sqrt",  "sign",  "rint",  "abs",  "sum",   "avg",  "min",  "max"};
  for (const char* word : reserved) {
    if (name == word) return true;
  }
  return false;
}

Expression::Expression(const std::string& text, const Constants& constants)
    : text_(text), compiled_(std::make_unique<Compiled>()) {
  auto& parser = compiled_->parser;
  const char* variables[4] = {"x", "y", "z", "t"};
  try {
    for (int v = 0; v < 4; ++v) parser.DefineVar(variables[v], &compiled_->point[v]);
    parser.DefineConst("pi", 3.14159265358979323846);
    for (const auto& [name, value] : constants) parser.DefineConst(name, value);
    parser.SetExpr(text);
    (void)parser.Eval();  // parses the text
  } catch (const mu::Parser::exception_type& e) {
    // A fault at the end of the text (a missing parenthesis) is placed just past its last character.
    const std::size_t column = std::min<std::size_t>(static_cast<std::size_t>(e.GetPos()) + 1, text.size() + 1);
    const std::string at = "at column " + std::to_string(column);
    std::string problem;
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN) {
      problem = "unknown name '" + e.GetToken() + "' " + at + "; allowed names: " + expression_names(constants) +
                ", and muparser's functions (sin, cos, exp, log, sqrt, abs, tanh, min, max, ...)";
    } else {
      // muparser counts positions from 0 ("... found at position 2"): the message gives the column instead.
      problem = e.GetMsg();
      if (const auto cut = problem.find(" found at position"); cut != std::string::npos) problem.resize(cut);
      if (const auto cut = problem.find(" at position"); cut != std::string::npos) problem.resize(cut);
      while (!problem.empty() && (problem.back() == '.' || problem.back() == ' ')) problem.pop_back();
      if (!problem.empty()) problem[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(problem[0])));
      problem += " " + at;
    }
    throw Error("'" + text + "': " + problem);
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

bool Expression::uses(const std::string& name) const {
  const auto used = compiled_->parser.GetUsedVar();
  return used.find(name) != used.end();
}

double Expression::operator()(double x, double y, double z, double t) const {
  compiled_->point = {x, y, z, t};
  return compiled_->parser.Eval();
}

}  // namespace eddy::config
