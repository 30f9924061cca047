// output.fields: the flow arrays by name, every scalar through `scalars` (in the default list), single scalars by
// their names; unknown names fail naming the key, the value and the names this deck allows.
#include "config/output_fields.hpp"
#include "config_test_helpers.hpp"

namespace eddy::config {
namespace {

using Names = std::vector<std::string>;
using testing::load_error;

const std::string two_scalars = "scalars: [{name: temperature, diffusivity: 0.1}, {name: dye, diffusivity: 0}]\n";

TEST(OutputFields, DefaultListWritesEveryScalar) {
  EXPECT_EQ(output_arrays(load_text(two_scalars, "t")),
            (Names{"velocity", "pressure", "vorticity", "temperature", "dye"}));
  EXPECT_EQ(output_arrays(load_text("name: c\n", "t")), (Names{"velocity", "pressure", "vorticity"}));
  EXPECT_EQ(output_arrays(load_text("domain: {dimensions: 3, cells: [8, 8, 8], length: [1, 1, 1]}\n", "t")),
            (Names{"velocity", "pressure", "vorticity", "q_criterion"}));
}

TEST(OutputFields, ScalarsChosenByName) {
  EXPECT_EQ(output_arrays(load_text(two_scalars + "output: {fields: [dye, pressure]}\n", "t")),
            (Names{"pressure", "dye"}));
  EXPECT_EQ(output_arrays(load_text(two_scalars + "output: {fields: [velocity]}\n", "t")), (Names{"velocity"}));
  EXPECT_EQ(output_arrays(load_text(two_scalars + "output: {fields: [scalars, dye]}\n", "t")),
            (Names{"temperature", "dye"}));
  EXPECT_EQ(output_arrays(load_text(two_scalars + "output: {fields: []}\n", "t")), Names{});
}

TEST(OutputFields, UnknownNamesListTheAllowedOnes) {
  EXPECT_CONTAINS(load_error(two_scalars + "output: {fields: [velocity, tempreature]}\n"),
                  "output.fields[1] (deck.yaml, line 2): got 'tempreature'; allowed: velocity, pressure, vorticity, "
                  "q_criterion, scalars, temperature, dye (did you mean 'temperature'?)");
  EXPECT_CONTAINS(load_error("output: {fields: [temperature]}\n"),
                  "output.fields[0] (deck.yaml, line 1): got 'temperature'; allowed: velocity, pressure, vorticity, "
                  "q_criterion, scalars");
  EXPECT_CONTAINS(load_error(two_scalars + "output: {fields: [dye, dye]}\n"), "'dye' is listed twice");
}

TEST(OutputFields, ScalarsCannotTakeTheNameOfAnArray) {
  for (const std::string name : {"pressure", "q_criterion", "scalars"}) {
    const std::string message = load_error("scalars: [{name: " + name + "}]\n");
    EXPECT_CONTAINS(message, "scalars[0].name (deck.yaml");
    EXPECT_CONTAINS(message,
                    "got '" + name + "'; allowed: any name but velocity, pressure, vorticity, q_criterion and scalars");
  }
}

}  // namespace
}  // namespace eddy::config
