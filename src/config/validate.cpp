#include "config/validate.hpp"

#include "config/names.hpp"
#include "config/output_fields.hpp"
#include "config/print.hpp"
#include "config/suggest.hpp"
#include "config/validate_physics.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <cctype>

namespace eddy::config {
namespace {

class DeckChecker {
 public:
  DeckChecker(const Deck& deck, const SourceMap& where) : deck_(deck), where_(where) {}

  void check_all() {
    check_name();
    check_domain();
    check_physics();
    check_boundary();
    check_initial();
    check_time();
    check_pressure();
    check_output();
    check_parallel();
  }

 private:
  // Fails with "path (where): got <value>; allowed: <allowed>" unless `ok`.
  void require_value(bool ok, const std::string& path, const std::string& value, const std::string& allowed) const {
    if (!ok) throw Error(where_.message(path, "got " + value + "; allowed: " + allowed));
  }
  void require_real(bool ok, const std::string& path, double value, const std::string& allowed) const {
    require_value(ok, path, format_real(value), allowed);
  }
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw Error(where_.message(path, problem));
  }

  void check_name() {
    const auto& name = deck_.name;
    const bool safe = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
    require_value(safe, "name", "'" + name + "'", "letters, digits, '_', '-' and '.' (it names output files)");
  }

  void check_domain() {
    const auto& domain = deck_.domain;
    for (int a = 0; a < domain.dimensions; ++a) {
      const std::string index = "[" + std::to_string(a) + "]";
      require_value(domain.cells[a] >= 1, "domain.cells" + index, std::to_string(domain.cells[a]), "an integer >= 1");
      require_real(domain.length[a] > 0, "domain.length" + index, domain.length[a], "> 0");
      if (domain.stretching[a].stretched()) check_stretching(a);
    }
  }

  void check_stretching(int a) {
    const auto& domain = deck_.domain;
    const auto& s = domain.stretching[a];
    const std::string path = "domain.stretching." + std::string(1, "xyz"[a]);
    const double uniform = domain.length[a] / domain.cells[a];
    if (s.cluster != Clustering::none) {
      if (s.factor != 0 || s.first_cell == 0) {
        require_real(s.factor > 0 && s.factor <= 20, path + ".factor", s.factor, "a number in (0, 20]");
      } else {
        require_real(s.first_cell > 0 && s.first_cell < uniform, path + ".first_cell", s.first_cell,
                     "a width in (0, " + format_real(uniform) + "), below the uniform spacing length / cells");
      }
    } else {
      const std::string where = s.file.empty() ? path + ".faces" : path + ".file";
      require_value(
          static_cast<int>(s.faces.size()) == domain.cells[a] + 1, where,
          std::to_string(s.faces.size()) + " coordinates",
          "domain.cells[" + std::to_string(a) + "] + 1 = " + std::to_string(domain.cells[a] + 1) + " face coordinates");
      for (std::size_t m = 1; m < s.faces.size(); ++m) {
        require_value(s.faces[m] > s.faces[m - 1], where,
                      "face " + std::to_string(m) + " at " + format_real(s.faces[m]),
                      "coordinates rising from face to face (face " + std::to_string(m - 1) + " is at " +
                          format_real(s.faces[m - 1]) + ")");
      }
      const double tolerance = 1e-9 * domain.length[a];
      require_value(std::abs(s.faces.front() - domain.origin[a]) <= tolerance &&
                        std::abs(s.faces.back() - domain.origin[a] - domain.length[a]) <= tolerance,
                    where, "faces from " + format_real(s.faces.front()) + " to " + format_real(s.faces.back()),
                    "faces from domain.origin = " + format_real(domain.origin[a]) +
                        " to origin + length = " + format_real(domain.origin[a] + domain.length[a]));
    }
    // Multigrid relaxes a stretched axis line by line, each line on one rank.
    const int split = deck_.parallel.process_grid[a];
    require_value(split <= 1, "parallel.process_grid[" + std::to_string(a) + "]", std::to_string(split),
                  "0 or 1: " + path + " is stretched, and the pressure solver's lines along it stay on one rank");
    require_value(deck_.pressure.solver == PoissonSolverType::multigrid, "pressure.solver",
                  to_string(deck_.pressure.solver), "multigrid on a stretched grid (" + path + " is set)");
    const std::string why = " need a uniform grid, and " + path + " stretches axis " + std::string(1, "xyz"[a]);
    if (!deck_.bodies.empty()) fail("bodies", "immersed bodies" + why + "; remove the stretching or the bodies");
    if (deck_.statistics.enabled && deck_.statistics.average_over[a]) {
      fail("statistics.average_over",
           "the profiles average over homogeneous axes, which" + why + "; average over the uniform axes");
    }
    // The parabolic inflow profile is laid over the cell counts; an expression follows the true positions.
    for (int f = 0; f < 6; ++f) {
      const auto& face = deck_.boundary.faces[f];
      if (f / 2 == a || face.type != BoundaryType::inflow || face.profile != InflowProfile::parabolic ||
          !face.velocity_expressions.empty()) {
        continue;
      }
      fail("boundary." + std::string(face_names[f]) + ".profile",
           "a parabolic profile across a stretched axis (" + path + ") is not supported; give the velocity as an " +
               "expression of x, y, z instead (e.g. \"6*y*(1 - y)\" on a unit height)");
    }
  }

  void check_physics() {
    require_real(deck_.physics.viscosity >= 0, "physics.viscosity", deck_.physics.viscosity,
                 ">= 0 (kinematic viscosity; 0 = inviscid)");
    require_real(deck_.physics.density > 0, "physics.density", deck_.physics.density, "> 0");
  }

  void check_boundary() {
    const auto& faces = deck_.boundary.faces;
    const int dims = deck_.domain.dimensions;
    bool inflow = false, outflow = false;
    for (int axis = 0; axis < dims; ++axis) {
      const auto& low = faces[2 * axis];
      const auto& high = faces[2 * axis + 1];
      if ((low.type == BoundaryType::periodic) != (high.type == BoundaryType::periodic)) {
        const int lone = low.type == BoundaryType::periodic ? 0 : 1;
        const std::string path = "boundary." + std::string(face_names[2 * axis + lone]);
        fail(path + ".type", "periodic on " + std::string(face_names[2 * axis + lone]) + " but " +
                                 to_string(faces[2 * axis + 1 - lone].type) + " on " +
                                 std::string(face_names[2 * axis + 1 - lone]) + "; the " + axis_letter(axis) +
                                 " axis must be periodic on both faces or on neither");
      }
      for (int side = 0; side < 2; ++side) {
        const auto& face = faces[2 * axis + side];
        const std::string path = "boundary." + std::string(face_names[2 * axis + side]) + ".velocity";
        const double normal = face.velocity[axis];
        if (!face.velocity_expressions.empty()) {
          // Expressions may enter on part of the face and leave on the rest, and faces given by them may close the
          // domain (a flow through it, such as Kovasznay's); a wall stays a wall.
          if (face.type == BoundaryType::moving_wall) {
            require_value(face.velocity_expressions[axis] == "0", path + "[" + std::to_string(axis) + "]",
                          "'" + face.velocity_expressions[axis] + "'",
                          "\"0\" (a wall moves along itself; its normal velocity must be zero)");
          }
          continue;
        }
        if (face.type == BoundaryType::moving_wall) {
          require_real(normal == 0, path + "[" + std::to_string(axis) + "]", normal,
                       "0 (a wall moves along itself; its normal velocity must be zero)");
        }
        if (face.type == BoundaryType::inflow) {
          // The normal velocity must point into the domain: +axis on the low face, -axis on the high face.
          const bool inward = side == 0 ? normal > 0 : normal < 0;
          require_real(inward, path + "[" + std::to_string(axis) + "]", normal,
                       side == 0 ? "> 0 (inflow on a low face enters along +" + axis_letter(axis) + ")"
                                 : "< 0 (inflow on a high face enters along -" + axis_letter(axis) + ")");
          inflow = true;
        }
        if (face.type == BoundaryType::outflow) outflow = true;
      }
    }
    if (inflow && !outflow) {
      fail("boundary",
           "an inflow face needs an outflow face somewhere: the incompressible flow entering the domain "
           "must be able to leave it");
    }
  }

  void check_initial() {
    const auto& initial = deck_.initial;
    require_real(initial.amplitude >= 0, "initial.amplitude", initial.amplitude, ">= 0");
    require_real(initial.noise >= 0, "initial.noise", initial.noise, ">= 0");
  }

  void check_time() {
    const auto& time = deck_.time;
    require_real(time.dt > 0, time.adaptive ? "time.dt.initial" : "time.dt", time.dt, "> 0");
    require_real(time.cfl > 0 && time.cfl <= 1.5, "time.cfl", time.cfl, "0 < cfl <= 1.5");
    require_real(time.viscous_safety > 0 && time.viscous_safety <= 1, "time.viscous_safety", time.viscous_safety,
                 "0 < viscous_safety <= 1 (a fraction of the explicit diffusion limit)");
    require_real(time.end_time > 0, "time.end_time", time.end_time, "> 0");
    require_value(time.max_steps >= 1, "time.max_steps", std::to_string(time.max_steps), "an integer >= 1");
    require_real(time.wall_time_limit >= 0, "time.wall_time_limit", time.wall_time_limit, ">= 0 seconds (0 = none)");
  }

  void check_pressure() {
    const auto& p = deck_.pressure;
    require_real(p.rtol >= 0 && p.rtol < 1, "pressure.rtol", p.rtol, "0 <= rtol < 1");
    require_real(p.intermediate_rtol >= 0 && p.intermediate_rtol < 1, "pressure.intermediate_rtol", p.intermediate_rtol,
                 "0 <= intermediate_rtol < 1 (0: pressure.rtol)");
    require_real(p.atol >= 0, "pressure.atol", p.atol, ">= 0");
    require_real(p.rtol > 0 || p.atol > 0, "pressure.atol", p.atol, "> 0 when pressure.rtol is 0 (a solve must stop)");
    require_value(p.max_iterations >= 1, "pressure.max_iterations", std::to_string(p.max_iterations),
                  "an integer >= 1");
    require_value(p.pre_smooth >= 0, "pressure.pre_smooth", std::to_string(p.pre_smooth), "an integer >= 0");
    require_value(p.post_smooth >= 0, "pressure.post_smooth", std::to_string(p.post_smooth), "an integer >= 0");
    require_value(p.pre_smooth + p.post_smooth >= 1, "pressure.post_smooth", std::to_string(p.post_smooth),
                  "pre_smooth + post_smooth >= 1 (a multigrid cycle must smooth)");
    require_real(p.relaxation > 0 && p.relaxation < 2, "pressure.relaxation", p.relaxation,
                 "0 < relaxation < 2 (over-relaxed red-black Gauss-Seidel diverges outside)");
    require_value(p.check_every >= 1, "pressure.check_every", std::to_string(p.check_every), "an integer >= 1");
  }

  void check_output() {
    const auto& output = deck_.output;
    require_value(!output.directory.empty(), "output.directory", "''", "a non-empty path");
    require_value(output.interval_steps >= 0, "output.interval_steps", std::to_string(output.interval_steps),
                  "an integer >= 0 (0 = off)");
    require_real(output.interval_time >= 0, "output.interval_time", output.interval_time, ">= 0 (0 = off)");
    const auto known = allowed_output_fields(deck_);
    for (std::size_t n = 0; n < output.fields.size(); ++n) {
      const auto& field = output.fields[n];
      const std::string path = "output.fields[" + std::to_string(n) + "]";
      if (std::find(known.begin(), known.end(), field) == known.end()) {
        std::string allowed = join_words(known);
        if (auto guess = nearest_word(field, known); !guess.empty()) allowed += " (did you mean '" + guess + "'?)";
        require_value(false, path, "'" + field + "'", allowed);
      }
      if (std::find(output.fields.begin(), output.fields.begin() + n, field) != output.fields.begin() + n) {
        fail(path, "'" + field + "' is listed twice");
      }
    }
    require_value(output.checkpoint_interval_steps >= 0, "output.checkpoint_interval_steps",
                  std::to_string(output.checkpoint_interval_steps), "an integer >= 0 (0 = only at the end)");
    require_value(output.keep_checkpoints >= 1, "output.keep_checkpoints", std::to_string(output.keep_checkpoints),
                  "an integer >= 1");
    require_value(output.log_interval >= 1, "output.log_interval", std::to_string(output.log_interval),
                  "an integer >= 1");
  }

  void check_parallel() {
    const auto& grid = deck_.parallel.process_grid;
    for (int a = 0; a < deck_.domain.dimensions; ++a) {
      const std::string path = "parallel.process_grid[" + std::to_string(a) + "]";
      require_value(grid[a] >= 0, path, std::to_string(grid[a]), "an integer >= 0 (0 = chosen automatically)");
      require_value(grid[a] <= deck_.domain.cells[a], path, std::to_string(grid[a]),
                    "at most domain.cells[" + std::to_string(a) + "] = " + std::to_string(deck_.domain.cells[a]) +
                        " (each rank needs a cell)");
    }
  }

  const Deck& deck_;
  const SourceMap& where_;
};

}  // namespace

void validate(const Deck& deck, const SourceMap& where) {
  DeckChecker(deck, where).check_all();
  validate_physics(deck, where);
}

void validate(const Deck& deck) { validate(deck, SourceMap(deck.source.empty() ? "<deck>" : deck.source)); }

}  // namespace eddy::config
