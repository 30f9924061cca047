#include "config/parse.hpp"

#include "config/parse_physics.hpp"
#include "config/yaml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>

namespace eddy::config {
namespace {

class DeckReader : public YamlReader {
 public:
  explicit DeckReader(SourceMap& where) : YamlReader(where) {}

  Deck read(const YAML::Node& root) {
    check_section(root, "");
    Deck deck;
    if (root["name"]) deck.name = read_string(root["name"], "name");
    read_constants(root["constants"], deck.constants);
    constants_ = deck.constants;
    read_domain(section(root, "domain"), deck.domain);
    dims_ = deck.domain.dimensions;
    read_physics(section(root, "physics"), deck);
    read_boundary(section(root, "boundary"), deck.boundary);
    read_initial(section(root, "initial"), deck.initial, deck.constants);
    read_time(section(root, "time"), deck.time);
    read_numerics(section(root, "numerics"), deck.numerics);
    read_pressure(section(root, "pressure"), deck.pressure);
    read_output(section(root, "output"), deck.output);
    read_parallel(section(root, "parallel"), deck.parallel);
    read_tuning(section(root, "tuning"), deck.tuning);
    read_coupled_physics(*this, root,
                         deck);  // physics.{rayleigh, prandtl, beta_g, ...}, scalars, bodies, probes, lines
    return deck;
  }

 private:
  void read_domain(const YAML::Node& node, DomainConfig& domain) {
    if (node["dimensions"]) domain.dimensions = read_int(node["dimensions"], "domain.dimensions");
    if (domain.dimensions != 2 && domain.dimensions != 3) {
      fail("domain.dimensions", "got " + std::to_string(domain.dimensions) + "; allowed: 2, 3");
    }
    const int n = domain.dimensions;
    if (node["cells"]) domain.cells = read_list<int>(node["cells"], "domain.cells", n, 1, "integers");
    if (node["length"]) domain.length = read_list<double>(node["length"], "domain.length", n, 1.0, "numbers");
    if (node["origin"]) domain.origin = read_list<double>(node["origin"], "domain.origin", n, 0.0, "numbers");
    if (n == 2) {
      // 2D is 3D with one cell in z; the z extent matches the x spacing so cells stay square in x-z.
      domain.cells[2] = 1;
      domain.length[2] = domain.cells[0] > 0 ? domain.length[0] / domain.cells[0] : domain.length[0];
      domain.origin[2] = 0;
    }
    if (const auto stretching = node["stretching"]) {
      check_section(stretching, "domain.stretching");
      for (int a = 0; a < 3; ++a) {
        const std::string letter(1, "xyz"[a]);
        if (!stretching[letter]) continue;
        if (a >= n) fail("domain.stretching." + letter, "a 2D domain has only x and y");
        domain.stretching[a] = read_stretching(stretching[letter], "domain.stretching." + letter);
      }
    }
  }

  // One axis's stretching: {cluster, factor | first_cell}, {faces: [...]} or {file: path}.
  StretchingConfig read_stretching(const YAML::Node& node, const std::string& path) {
    check_section(node, path);
    StretchingConfig s;
    const int given = int(bool(node["cluster"])) + int(bool(node["faces"])) + int(bool(node["file"]));
    if (given != 1) fail(path, "give one of cluster (a tanh clustering), faces (a list) and file (a text file)");
    if (node["cluster"]) {
      s.cluster = read_enum<Clustering>(node["cluster"], path + ".cluster");
      if (bool(node["factor"]) == bool(node["first_cell"])) {
        fail(path, "a clustering needs one of factor (the tanh stretching parameter) and first_cell (a width)");
      }
      if (node["factor"]) s.factor = read_number(node["factor"], path + ".factor");
      if (node["first_cell"]) s.first_cell = read_number(node["first_cell"], path + ".first_cell");
      return s;
    }
    if (node["factor"] || node["first_cell"]) fail(path, "factor and first_cell apply only to a cluster");
    if (node["faces"]) {
      if (!node["faces"].IsSequence())
        fail(path + ".faces", "expected a list of numbers, got " + describe(node["faces"]));
      for (std::size_t m = 0; m < node["faces"].size(); ++m) {
        s.faces.push_back(read_number(node["faces"][m], path + ".faces[" + std::to_string(m) + "]"));
      }
      return s;
    }
    s.file = read_string(node["file"], path + ".file");
    std::ifstream in(s.file);
    if (!in) fail(path + ".file", "cannot read '" + s.file + "' (a path relative to where eddy runs)");
    std::string word;
    while (in >> word) {
      char* end = nullptr;
      const double value = std::strtod(word.c_str(), &end);
      if (end == word.c_str() || *end != '\0' || !std::isfinite(value)) {
        fail(path + ".file", "'" + s.file + "' holds '" + word + "'; allowed: numbers (face coordinates)");
      }
      s.faces.push_back(value);
    }
    return s;
  }

  void read_physics(const YAML::Node& node, Deck& deck) {
    if (node["viscosity"] && node["reynolds"]) {
      fail("physics.reynolds", "give either physics.viscosity or physics.reynolds, not both");
    }
    if (node["viscosity"]) deck.physics.viscosity = read_number(node["viscosity"], "physics.viscosity");
    if (node["reynolds"]) {
      const double reynolds = read_number(node["reynolds"], "physics.reynolds");
      if (!(reynolds > 0)) fail("physics.reynolds", "got " + describe(node["reynolds"]) + "; allowed: > 0");
      // Re = U L / nu with the velocity scale U = 1 and the length scale L = domain.length[0].
      deck.physics.viscosity = deck.domain.length[0] / reynolds;
    }
    if (node["density"]) deck.physics.density = read_number(node["density"], "physics.density");
    if (node["body_force"]) {
      read_list<std::string>(node["body_force"], "physics.body_force", dims_, std::string("0"), "expressions");
      for (int a = 0; a < dims_; ++a) {
        deck.physics.body_force[a] =
            read_expression(node["body_force"][a], "physics.body_force[" + std::to_string(a) + "]", deck.constants);
      }
    }
  }

  // True when a list holds an entry that is not a number: an expression (a number is one too).
  static bool holds_expressions(const YAML::Node& list) {
    if (!list.IsSequence()) return false;
    for (const auto& entry : list) {
      if (!entry.IsScalar()) return false;
      try {
        (void)entry.as<double>();
      } catch (const YAML::Exception&) {
        return true;
      }
    }
    return false;
  }

  FaceBoundary read_face(const YAML::Node& node, const std::string& path) {
    FaceBoundary face;
    if (node.IsScalar()) {  // shorthand: `x_low: no_slip`
      face.type = read_enum<BoundaryType>(node, path + ".type");
      if (face.type == BoundaryType::moving_wall || face.type == BoundaryType::inflow) {
        fail(path, "a " + to_string(face.type) + " face needs a velocity: write {type: " + to_string(face.type) +
                       ", velocity: [...]}");
      }
      return face;
    }
    check_section(node, path);
    if (!node["type"]) fail(path + ".type", "missing; allowed: " + join_words(allowed_names<BoundaryType>()));
    face.type = read_enum<BoundaryType>(node["type"], path + ".type");
    const bool moves = face.type == BoundaryType::moving_wall || face.type == BoundaryType::inflow;
    const std::string type_name = to_string(face.type);
    if (moves && !node["velocity"]) fail(path + ".velocity", "missing: a " + type_name + " face needs a velocity");
    if (!moves && node["velocity"]) {
      fail(path + ".velocity", "applies only to moving_wall and inflow faces, not to " + type_name);
    }
    if (node["velocity"] && holds_expressions(node["velocity"])) {
      read_list<std::string>(node["velocity"], path + ".velocity", dims_, std::string("0"), "expressions");
      for (int a = 0; a < dims_; ++a) {
        face.velocity_expressions.push_back(
            read_expression(node["velocity"][a], path + ".velocity[" + std::to_string(a) + "]", constants_));
      }
      if (node["profile"]) fail(path + ".profile", "a velocity given by expressions holds its own profile");
    } else if (node["velocity"]) {
      face.velocity = read_list<double>(node["velocity"], path + ".velocity", dims_, 0.0, "numbers");
    }
    if (node["profile"]) {
      if (face.type != BoundaryType::inflow)
        fail(path + ".profile", "applies only to inflow faces, not to " + type_name);
      face.profile = read_enum<InflowProfile>(node["profile"], path + ".profile");
    }
    if (node["kind"]) {
      if (face.type != BoundaryType::outflow)
        fail(path + ".kind", "applies only to outflow faces, not to " + type_name);
      face.outflow = read_enum<OutflowType>(node["kind"], path + ".kind");
    }
    return face;
  }

  void read_boundary(const YAML::Node& node, BoundaryConfig& boundary) {
    FaceBoundary fallback;
    if (node["default"]) fallback = read_face(node["default"], "boundary.default");
    for (int f = 0; f < 6; ++f) {
      const std::string name(face_names[f]);
      const std::string path = "boundary." + name;
      if (f >= 4 && dims_ == 2) {
        if (node[name]) fail(path, "z faces exist only in 3D (domain.dimensions is 2); a 2D domain is periodic in z");
        boundary.faces[f] = FaceBoundary{};
        boundary.faces[f].type = BoundaryType::periodic;
        continue;
      }
      boundary.faces[f] = node[name] ? read_face(node[name], path) : fallback;
    }
  }

  // Names and values of the section `constants`, for expressions: identifiers other than x, y, z, t and pi.
  void read_constants(const YAML::Node& node, Constants& constants) {
    if (!node) return;
    if (!node.IsMap()) fail("constants", "expected a section of names and numbers, got " + describe(node));
    for (const auto& entry : node) {
      if (!entry.first.IsScalar())
        fail("constants", "a constant's name must be a plain word, got " + describe(entry.first));
      const std::string name = entry.first.Scalar();
      const std::string path = "constants." + name;
      if (entry.first.Mark().line >= 0) where_.record_line(path, entry.first.Mark().line + 1);
      const bool word = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                        std::all_of(name.begin(), name.end(),
                                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
      if (!word || expression_reserves(name)) {
        fail(path, "'" + name +
                       "' cannot name a constant; allowed: a letter or '_' followed by letters, digits or "
                       "'_', other than x, y, z, t, pi and the names of functions");
      }
      for (const auto& [known, value] : constants) {
        if (known == name) fail(path, "the constant '" + name + "' is given twice");
      }
      constants.emplace_back(name, read_number(entry.second, path));
      try {
        (void)Expression(name, constants);
      } catch (const Error& e) {
        fail(path, e.what());
      }
    }
  }

  void read_initial(const YAML::Node& node, InitialConfig& initial, const Constants& constants) {
    if (node["type"]) initial.type = read_enum<InitialType>(node["type"], "initial.type");
    if (initial.type == InitialType::expression) {
      if (node["velocity"]) {
        read_list<std::string>(node["velocity"], "initial.velocity", dims_, std::string("0"), "expressions");
        for (int a = 0; a < dims_; ++a) {
          initial.velocity_expressions[a] =
              read_expression(node["velocity"][a], "initial.velocity[" + std::to_string(a) + "]", constants);
        }
      }
      if (node["pressure"])
        initial.pressure_expression = read_expression(node["pressure"], "initial.pressure", constants);
    } else if (node["pressure"]) {
      fail("initial.pressure", "only the initial type 'expression' takes a pressure; got type '" +
                                   std::string(to_string(initial.type)) + "'");
    } else if (node["velocity"]) {
      initial.velocity = read_list<double>(node["velocity"], "initial.velocity", dims_, 0.0, "numbers");
    }
    if (node["amplitude"]) initial.amplitude = read_number(node["amplitude"], "initial.amplitude");
    if (node["noise"]) initial.noise = read_number(node["noise"], "initial.noise");
    if (node["seed"]) {
      const long long seed = read_long(node["seed"], "initial.seed");
      if (seed < 0) fail("initial.seed", "got " + describe(node["seed"]) + "; allowed: an integer >= 0");
      initial.seed = static_cast<unsigned long long>(seed);
    }
  }

  void read_time_step(const YAML::Node& node, TimeConfig& time) {
    const std::string expected = "'adaptive', a number, or {adaptive: true, initial: 1e-3}";
    if (node.IsScalar() && node.Scalar() == "adaptive") {
      time.adaptive = true;
    } else if (node.IsScalar()) {
      time.dt = read_scalar<double>(node, "time.dt", expected);
      if (!std::isfinite(time.dt)) fail("time.dt", "expected " + expected + ", got " + describe(node));
      time.adaptive = false;
    } else if (node.IsMap()) {
      check_section(node, "time.dt");
      time.adaptive = node["adaptive"] ? read_bool(node["adaptive"], "time.dt.adaptive") : true;
      if (node["initial"]) time.dt = read_number(node["initial"], "time.dt.initial");
    } else {
      fail("time.dt", "expected " + expected + ", got " + describe(node));
    }
  }

  void read_time(const YAML::Node& node, TimeConfig& time) {
    if (node["scheme"]) time.scheme = read_enum<TimeScheme>(node["scheme"], "time.scheme");
    if (node["dt"]) read_time_step(node["dt"], time);
    if (node["cfl"]) time.cfl = read_number(node["cfl"], "time.cfl");
    if (node["viscous_safety"]) time.viscous_safety = read_number(node["viscous_safety"], "time.viscous_safety");
    if (node["end_time"]) time.end_time = read_number(node["end_time"], "time.end_time");
    if (node["max_steps"]) time.max_steps = read_long(node["max_steps"], "time.max_steps");
    if (node["wall_time_limit"]) time.wall_time_limit = read_number(node["wall_time_limit"], "time.wall_time_limit");
  }

  void read_numerics(const YAML::Node& node, NumericsConfig& numerics) {
    if (node["advection"]) numerics.advection = read_enum<AdvectionScheme>(node["advection"], "numerics.advection");
  }

  void read_pressure(const YAML::Node& node, PoissonConfig& pressure) {
    if (node["solver"]) pressure.solver = read_enum<PoissonSolverType>(node["solver"], "pressure.solver");
    if (node["rtol"]) pressure.rtol = read_number(node["rtol"], "pressure.rtol");
    if (node["intermediate_rtol"]) {
      pressure.intermediate_rtol = read_number(node["intermediate_rtol"], "pressure.intermediate_rtol");
    }
    if (node["atol"]) pressure.atol = read_number(node["atol"], "pressure.atol");
    if (node["max_iterations"]) pressure.max_iterations = read_int(node["max_iterations"], "pressure.max_iterations");
    if (node["smoother"]) pressure.smoother = read_enum<SmootherType>(node["smoother"], "pressure.smoother");
    if (node["cycle"]) pressure.cycle = read_enum<CycleType>(node["cycle"], "pressure.cycle");
    if (node["pre_smooth"]) pressure.pre_smooth = read_int(node["pre_smooth"], "pressure.pre_smooth");
    if (node["post_smooth"]) pressure.post_smooth = read_int(node["post_smooth"], "pressure.post_smooth");
    if (node["relaxation"]) pressure.relaxation = read_number(node["relaxation"], "pressure.relaxation");
    if (node["check_every"]) pressure.check_every = read_int(node["check_every"], "pressure.check_every");
    if (node["gather_coarse_levels"]) {
      pressure.gather_coarse_levels = read_bool(node["gather_coarse_levels"], "pressure.gather_coarse_levels");
    }
  }

  void read_output(const YAML::Node& node, OutputConfig& output) {
    if (node["directory"]) output.directory = read_string(node["directory"], "output.directory");
    if (node["overwrite"]) output.overwrite = read_bool(node["overwrite"], "output.overwrite");
    if (node["interval_steps"]) output.interval_steps = read_long(node["interval_steps"], "output.interval_steps");
    if (node["interval_time"]) output.interval_time = read_number(node["interval_time"], "output.interval_time");
    if (const auto fields = node["fields"]) {
      if (!fields.IsSequence()) fail("output.fields", "expected a list of field names, got " + describe(fields));
      output.fields.clear();
      for (std::size_t n = 0; n < fields.size(); ++n) {
        output.fields.push_back(read_string(fields[n], "output.fields[" + std::to_string(n) + "]"));
      }
    }
    if (node["checkpoint_interval_steps"]) {
      output.checkpoint_interval_steps =
          read_long(node["checkpoint_interval_steps"], "output.checkpoint_interval_steps");
    }
    if (node["keep_checkpoints"])
      output.keep_checkpoints = read_int(node["keep_checkpoints"], "output.keep_checkpoints");
    if (node["log_interval"]) output.log_interval = read_long(node["log_interval"], "output.log_interval");
    if (node["exact_phase_times"]) {
      output.exact_phase_times = read_bool(node["exact_phase_times"], "output.exact_phase_times");
    }
  }

  void read_parallel(const YAML::Node& node, ParallelConfig& parallel) {
    if (node["process_grid"]) {
      parallel.process_grid = read_list<int>(node["process_grid"], "parallel.process_grid", dims_, 0, "integers");
    }
    if (node["halo_backend"])
      parallel.halo_backend = read_enum<CommBackend>(node["halo_backend"], "parallel.halo_backend");
    if (node["reduction_backend"]) {
      parallel.reduction_backend = read_enum<CommBackend>(node["reduction_backend"], "parallel.reduction_backend");
      if (parallel.reduction_backend == CommBackend::peer) {
        fail("parallel.reduction_backend", "'peer' moves halo data only; allowed here: auto, mpi, nccl");
      }
    }
    if (node["overlap"]) parallel.overlap = read_bool(node["overlap"], "parallel.overlap");
  }

  void read_tuning(const YAML::Node& node, TuningConfig& tuning) {
    if (node["pair_planes"]) {
      tuning.pair_planes = read_int(node["pair_planes"], "tuning.pair_planes");
      if (tuning.pair_planes < 2 || tuning.pair_planes > 1024 || tuning.pair_planes % 2 != 0) {
        fail("tuning.pair_planes",
             "got " + std::to_string(tuning.pair_planes) + "; allowed: an even number from 2 to 1024");
      }
    }
    if (node["hdf5_writes"]) tuning.hdf5_writes = read_enum<Hdf5Writes>(node["hdf5_writes"], "tuning.hdf5_writes");
  }
};

}  // namespace

Deck parse_deck(const YAML::Node& root, SourceMap& where) { return DeckReader(where).read(root); }

}  // namespace eddy::config
