// Deck expressions (config/expression.hpp): they evaluate muparser's formulas of x, y, z, t, pi and the deck's
// constants; a malformed one, an unknown name or a reserved constant is refused with the key, the column and what is
// allowed; the deck prints them so that it reads back unchanged, and `--set` changes a constant.
#include "config/expression.hpp"
#include "config/load.hpp"
#include "config/print.hpp"
#include "core/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using eddy::config::Constants;
using eddy::config::Expression;

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

std::string load_error(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    (void)eddy::config::load_text(yaml, "deck.yaml", overrides);
  } catch (const eddy::Error& e) {
    return e.what();
  }
  return "no error";
}

const std::string expression_deck =
    "constants: {U: 2, nu: 0.025}\n"
    "domain: {cells: [8, 8]}\n"
    "initial:\n"
    "  type: expression\n"
    "  velocity: [\"U*(1 - exp(x/nu)*cos(2*pi*y))\", \"x > 0.5 ? sin(t) : 0\"]\n"
    "  pressure: \"0.5*U^2*(1 - exp(2*x))\"\n";

}  // namespace

TEST(ConfigExpressions, EvaluateFormulasOfThePointTimeAndConstants) {
  const Constants constants{{"U", 2}, {"k", 3}};
  const Expression e("U*sin(k*x)*cos(y) + z*t + pi", constants);
  EXPECT_DOUBLE_EQ(e(0.3, 0.2, 4, 0.5), 2 * std::sin(0.9) * std::cos(0.2) + 2 + M_PI);
  const Expression branch("x < 0 ? -1 : min(y, 2)", constants);
  EXPECT_EQ(branch(-1, 0, 0, 0), -1);
  EXPECT_EQ(branch(1, 5, 0, 0), 2);
  EXPECT_EQ(e.text(), "U*sin(k*x)*cos(y) + z*t + pi");
}

TEST(ConfigExpressions, ADeckWithExpressionsAndConstantsReadsBackUnchanged) {
  const auto deck = eddy::config::load_text(expression_deck, "deck.yaml");
  ASSERT_EQ(deck.constants.size(), 2u);
  EXPECT_EQ(deck.constants[1].first, "nu");
  EXPECT_EQ(deck.initial.type, eddy::config::InitialType::expression);
  EXPECT_EQ(deck.initial.velocity_expressions[1], "x > 0.5 ? sin(t) : 0");
  EXPECT_EQ(deck.initial.pressure_expression, "0.5*U^2*(1 - exp(2*x))");
  const std::string printed = eddy::config::to_yaml(deck);
  EXPECT_EQ(eddy::config::load_text(printed, "deck.yaml"), deck) << printed;
  const auto changed = eddy::config::load_text(expression_deck, "deck.yaml", {"constants.U=3"});
  EXPECT_EQ(changed.constants[0].second, 3);
}

TEST(ConfigExpressions, MalformedExpressionsNameTheKeyTheColumnAndWhatIsAllowed) {
  const std::string head = "constants: {Re: 40}\ndomain: {cells: [8, 8]}\ninitial:\n  type: expression\n";
  EXPECT_CONTAINS(load_error(head + "  velocity: [\"sin(x) + Re*foo\", \"0\"]\n"),
                  "initial.velocity[0] (deck.yaml, line 5): 'sin(x) + Re*foo': unknown name 'foo' at column 13; "
                  "allowed names: x, y, z, t, pi, Re, and muparser's functions");
  EXPECT_CONTAINS(load_error(head + "  velocity: [\"0\", \"cos(y\"]\n"),
                  "initial.velocity[1] (deck.yaml, line 5): 'cos(y': missing parenthesis at column 6");
  EXPECT_CONTAINS(load_error(head + "  pressure: \"2**x\"\n"),
                  "initial.pressure (deck.yaml, line 5): '2**x': unexpected operator \"*\" at column 3");
  EXPECT_CONTAINS(load_error(head + "  velocity: [\"0\", \"0\", \"0\"]\n"), "initial.velocity (deck.yaml, line 5)");
  EXPECT_CONTAINS(load_error("initial: {type: uniform, pressure: \"1\"}\n"),
                  "initial.pressure (deck.yaml, line 1): only the initial type 'expression' takes a pressure; got "
                  "type 'uniform'");
}

TEST(ConfigExpressions, ConstantsMustBeNumbersWithNamesOfTheirOwn) {
  for (const char* name : {"x", "pi", "sin", "2b", "a-b"}) {
    EXPECT_CONTAINS(load_error(std::string("constants: {") + name + ": 1}\n"),
                    std::string("constants.") + name + " (deck.yaml, line 1): '" + name + "' cannot name a constant");
  }
  EXPECT_CONTAINS(load_error("constants: {U: fast}\n"), "constants.U (deck.yaml, line 1): expected a number");
  EXPECT_CONTAINS(load_error("constants: [1, 2]\n"), "constants (deck.yaml, line 1): expected a section of names");
}

// A scalar's initial field and its source may be expressions too; the random perturbation then belongs in the
// expression.
TEST(ConfigExpressions, AScalarStartsFromAnExpression) {
  const std::string yaml =
      "constants: {dT: 2}\n"
      "domain: {cells: [8, 8]}\n"
      "physics: {rayleigh: 1.0e4, prandtl: 0.71}\n"
      "scalars:\n"
      "  - name: temperature\n"
      "    initial: {type: expression, value: \"0.5 + dT*x*(1 - x)\"}\n"
      "    source: \"dT*sin(t)*y\"\n";
  const auto deck = eddy::config::load_text(yaml, "deck.yaml");
  EXPECT_EQ(deck.scalars[0].initial.type, eddy::config::ScalarInitialType::expression);
  EXPECT_EQ(deck.scalars[0].initial.expression, "0.5 + dT*x*(1 - x)");
  EXPECT_EQ(deck.scalars[0].source, "dT*sin(t)*y");
  EXPECT_EQ(eddy::config::load_text(eddy::config::to_yaml(deck), "deck.yaml"), deck);
  std::string bad = yaml;
  bad.replace(bad.find("\"}"), 2, "\", amplitude: 0.1}");
  EXPECT_CONTAINS(load_error(bad),
                  "scalars[0].initial.amplitude (deck.yaml, line 6): type expression takes its "
                  "perturbation in the value");
}

// A face velocity may be expressions (an inflow with its own profile, or varying in time; a wall moving along
// itself); such a face takes no profile, and a moving wall's normal expression must be "0".
TEST(ConfigExpressions, FaceVelocitiesFromExpressions) {
  const std::string yaml =
      "constants: {Um: 1.5}\n"
      "domain: {cells: [16, 8], length: [2, 1]}\n"
      "boundary:\n"
      "  x_low: {type: inflow, velocity: [\"4*Um*y*(1 - y)*sin(pi*t/8)\", \"0\"]}\n"
      "  x_high: {type: outflow}\n"
      "  y_low: {type: moving_wall, velocity: [\"x*(2 - x)\", \"0\"]}\n"
      "  y_high: {type: no_slip}\n";
  const auto deck = eddy::config::load_text(yaml, "deck.yaml");
  EXPECT_EQ(deck.boundary.faces[0].velocity_expressions.at(0), "4*Um*y*(1 - y)*sin(pi*t/8)");
  EXPECT_EQ(deck.boundary.faces[2].velocity_expressions.at(0), "x*(2 - x)");
  EXPECT_TRUE(deck.boundary.faces[3].velocity_expressions.empty());
  EXPECT_EQ(eddy::config::load_text(eddy::config::to_yaml(deck), "deck.yaml"), deck);
  std::string moving_normal = yaml;
  moving_normal.replace(moving_normal.find("\"x*(2 - x)\", \"0\""), 16, "\"x*(2 - x)\", \"y\"");
  EXPECT_CONTAINS(load_error(moving_normal), "boundary.y_low.velocity[1] (deck.yaml, line 6): got 'y'; allowed: \"0\"");
  std::string profiled = yaml;
  profiled.replace(profiled.find("\"0\"]}"), 5, "\"0\"], profile: parabolic}");
  EXPECT_CONTAINS(load_error(profiled),
                  "boundary.x_low.profile (deck.yaml, line 4): a velocity given by expressions "
                  "holds its own profile");
}
