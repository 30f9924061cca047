#pragma once
// The input deck as plain structs. Every default lives here and nowhere else; config/parse.cpp fills these from
// YAML and config/validate.cpp checks them. No other part of eddy sees YAML.
#include "config/deck_physics.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::config {

/// Where the cells of a stretched axis cluster (deck key domain.stretching.<axis>.cluster).
enum class Clustering { none, both, low, high };

/// How the cells of one axis are spaced (deck section domain.stretching.<axis>): uniform, clustered by a tanh map
/// towards one or both ends, or at face coordinates given as a list or read from a file.
struct StretchingConfig {
  Clustering cluster = Clustering::none;
  double factor = 0;          ///< the tanh map's stretching parameter (0: set by first_cell)
  double first_cell = 0;      ///< the width of the cells at the clustered ends (0: set by factor)
  std::vector<double> faces;  ///< the cells + 1 face coordinates, ascending (given; empty with a cluster)
  std::string file;           ///< where `faces` was read from (empty: given in the deck)

  /// The deck keys of one axis's stretching.
  static constexpr std::array<std::string_view, 5> deck_keys{"cluster", "factor", "first_cell", "faces", "file"};
  /// True unless the axis is uniform.
  bool stretched() const { return cluster != Clustering::none || !faces.empty(); }
  bool operator==(const StretchingConfig&) const = default;
};

struct DomainConfig {
  int dimensions = 2;                            ///< 2 or 3
  std::array<int, 3> cells{64, 64, 1};           ///< cells per axis (z is 1 in 2D)
  std::array<double, 3> length{1, 1, 1};         ///< physical extent per axis
  std::array<double, 3> origin{0, 0, 0};         ///< coordinates of the low corner
  std::array<StretchingConfig, 3> stretching{};  ///< per axis; uniform unless set

  /// The keys of the deck section `domain`.
  static constexpr std::array<std::string_view, 5> deck_keys{"dimensions", "cells", "length", "origin", "stretching"};
  /// True when any axis is stretched.
  bool stretched() const { return stretching[0].stretched() || stretching[1].stretched() || stretching[2].stretched(); }

  bool operator==(const DomainConfig&) const = default;
};

struct PhysicsConfig {
  double viscosity = 0.01;  ///< kinematic viscosity nu
  double density = 1.0;     ///< constant density (pressure is reported as p, not p/rho)
  // Boussinesq buoyancy on the scalar named "temperature": f = -beta_g (T - T_ref) * gravity (a unit vector).
  double beta_g = 0;                        ///< expansion coefficient times |g|; 0 = no buoyancy
  double reference_temperature = 0;         ///< T_ref
  std::array<double, 3> gravity{0, -1, 0};  ///< direction of g; parse sets [0, 0, -1] in 3D unless given
  double rayleigh =
      0;  ///< as given (0: not given); with prandtl it sets viscosity, beta_g and the temperature's diffusivity
  double prandtl = 0;  ///< as given with rayleigh (0: not given)
  /// An acceleration of the fluid (force per unit mass), per axis an expression of x, y, z, t and the constants.
  std::array<std::string, 3> body_force{"0", "0", "0"};
  DriveConfig drive;  ///< a periodic channel's flow rate or pressure gradient

  /// The keys of the deck section `physics` (reynolds, rayleigh and prandtl set the fields above).
  static constexpr std::array<std::string_view, 10> deck_keys{
      "viscosity", "reynolds",   "density", "rayleigh", "prandtl", "beta_g", "reference_temperature",
      "gravity",   "body_force", "drive"};

  /// True when some component of body_force is not the plain "0".
  bool has_body_force() const {
    for (const auto& f : body_force) {
      if (f != "0") return true;
    }
    return false;
  }

  bool operator==(const PhysicsConfig&) const = default;
};

enum class BoundaryType { periodic, no_slip, moving_wall, free_slip, inflow, outflow };
enum class InflowProfile { uniform, parabolic };
enum class OutflowType { zero_gradient, convective };

/// Boundary condition on one face of the domain.
struct FaceBoundary {
  BoundaryType type = BoundaryType::no_slip;
  std::array<double, 3> velocity{0, 0, 0};  ///< wall velocity (moving_wall) or inflow velocity scale (inflow)
  InflowProfile profile = InflowProfile::uniform;
  OutflowType outflow = OutflowType::zero_gradient;
  /// The velocity on the face as expressions of x, y, z, t and the constants, one per axis, in place of `velocity`
  /// and `profile` (empty: those).
  std::vector<std::string> velocity_expressions;

  bool operator==(const FaceBoundary&) const = default;
};

/// Faces in the order x_low, x_high, y_low, y_high, z_low, z_high (index 2 * axis + side).
struct BoundaryConfig {
  std::array<FaceBoundary, 6> faces{};
  /// The face on `side` (0 low, 1 high) of `axis`.
  const FaceBoundary& face(int axis, int side) const { return faces[2 * axis + side]; }

  bool operator==(const BoundaryConfig&) const = default;
};

enum class InitialType { rest, uniform, taylor_green, random, expression };

struct InitialConfig {
  InitialType type = InitialType::rest;
  std::array<double, 3> velocity{0, 0, 0};  ///< uniform flow velocity, or the base flow for `random`
  double amplitude = 1.0;                   ///< Taylor-Green velocity scale, or random perturbation size
  unsigned long long seed = 12345;          ///< random perturbation seed (same field on any rank count)
  double noise = 0;                         ///< a seeded perturbation in [-noise, noise] added to any type
  std::string checkpoint;                   ///< restart from this checkpoint instead (set by --restart)
  /// `expression`: u, v (, w) and p as expressions of x, y, z and the deck's constants (config/expression.hpp).
  std::array<std::string, 3> velocity_expressions{"0", "0", "0"};
  std::string pressure_expression = "0";

  /// The keys of the deck section `initial`.
  static constexpr std::array<std::string_view, 6> deck_keys{"type",  "velocity", "amplitude",
                                                             "noise", "seed",     "pressure"};

  bool operator==(const InitialConfig&) const = default;
};

enum class TimeScheme { rk3, ssp_rk3, euler };

struct TimeConfig {
  TimeScheme scheme = TimeScheme::rk3;
  bool adaptive = true;         ///< CFL-controlled dt; otherwise `dt` is fixed
  double dt = 1e-3;             ///< fixed step, or the first step and upper bound when adaptive
  double cfl = 0.5;             ///< advective Courant number target
  double viscous_safety = 0.5;  ///< fraction of the explicit diffusion limit
  double end_time = 1.0;
  long long max_steps = 1000000000;
  double wall_time_limit = 0;  ///< seconds; 0 = no limit

  /// The keys of the deck section `time`; `dt` may be a number or {adaptive, initial}.
  static constexpr std::array<std::string_view, 7> deck_keys{
      "scheme", "dt", "cfl", "viscous_safety", "end_time", "max_steps", "wall_time_limit"};

  bool operator==(const TimeConfig&) const = default;
};

enum class AdvectionScheme { central, upwind };

struct NumericsConfig {
  AdvectionScheme advection = AdvectionScheme::central;

  /// The keys of the deck section `numerics`.
  static constexpr std::array<std::string_view, 1> deck_keys{"advection"};

  bool operator==(const NumericsConfig&) const = default;
};

enum class PoissonSolverType { multigrid, mg_cg, cg, jacobi };
enum class SmootherType { red_black_gauss_seidel, jacobi, chebyshev };
enum class CycleType { v, w, f };

struct PoissonConfig {
  PoissonSolverType solver = PoissonSolverType::multigrid;
  double rtol = 1e-8;            ///< stop when |r| <= rtol * |b|
  double intermediate_rtol = 0;  ///< the same for the Runge-Kutta stages before a step's last (0: rtol)
  double atol = 1e-12;           ///< or when |r| <= atol
  int max_iterations = 200;      ///< V-cycles for multigrid, iterations for the Krylov and Jacobi solvers
  SmootherType smoother = SmootherType::red_black_gauss_seidel;
  CycleType cycle = CycleType::v;
  int pre_smooth = 1;
  int post_smooth = 1;
  double relaxation = 1.2;           ///< red-black Gauss-Seidel over-relaxation factor omega, 0 < omega < 2
  int check_every = 1;               ///< residual norm every this many iterations
  bool gather_coarse_levels = true;  ///< multigrid on several ranks: cycle the small coarse levels whole on every rank

  /// The keys of the deck section `pressure`.
  static constexpr std::array<std::string_view, 12> deck_keys{
      "solver", "rtol",       "intermediate_rtol", "atol",       "max_iterations", "smoother",
      "cycle",  "pre_smooth", "post_smooth",       "relaxation", "check_every",    "gather_coarse_levels"};

  bool operator==(const PoissonConfig&) const = default;
};

struct OutputConfig {
  std::string directory = "runs/eddy";  ///< run folder
  bool overwrite = false;               ///< allow reusing an existing run folder
  long long interval_steps = 0;         ///< field output every N steps (0 = off)
  double interval_time = 0;             ///< field output every T of simulated time (0 = off)
  std::vector<std::string> fields{"velocity", "pressure", "vorticity", "scalars"};  ///< see config/output_fields.hpp
  long long checkpoint_interval_steps = 0;  ///< 0 = only at the end and on signals
  int keep_checkpoints = 3;
  long long log_interval = 10;    ///< print a diagnostics line every N steps
  bool exact_phase_times = true;  ///< charge each phase its device work (core/phase_timers.hpp; false: host time only)

  /// The keys of the deck section `output`.
  static constexpr std::array<std::string_view, 9> deck_keys{
      "directory",        "overwrite",    "interval_steps",   "interval_time", "fields", "checkpoint_interval_steps",
      "keep_checkpoints", "log_interval", "exact_phase_times"};

  bool operator==(const OutputConfig&) const = default;
};

enum class CommBackend { automatic, mpi, nccl, peer };

struct ParallelConfig {
  std::array<int, 3> process_grid{0, 0, 0};  ///< ranks per axis; 0 = chosen automatically
  CommBackend halo_backend = CommBackend::automatic;
  CommBackend reduction_backend = CommBackend::automatic;
  bool overlap = true;  ///< overlap the velocity's halo exchange with interior compute and the next pressure guess

  /// The keys of the deck section `parallel`.
  static constexpr std::array<std::string_view, 4> deck_keys{"process_grid", "halo_backend", "reduction_backend",
                                                             "overlap"};

  bool operator==(const ParallelConfig&) const = default;
};

enum class Hdf5Writes { automatic, collective, token_passing };

/// Machine-dependent choices that change speed, never results: the run's tuning plan (time/tuning_plan.hpp) starts
/// from these, prints what it chose at start and records it in summary.json.
struct TuningConfig {
  int pair_planes = 8;  ///< longest column of cell pairs a GPU thread marches in the stencil loops (even, 2..1024)
  Hdf5Writes hdf5_writes = Hdf5Writes::automatic;  ///< collective with parallel HDF5, else token passing

  /// The keys of the deck section `tuning`.
  static constexpr std::array<std::string_view, 2> deck_keys{"pair_planes", "hdf5_writes"};

  bool operator==(const TuningConfig&) const = default;
};

/// The whole resolved deck.
struct Deck {
  std::string name = "eddy";  ///< case name used in logs and output file names
  DomainConfig domain;
  PhysicsConfig physics;
  BoundaryConfig boundary;
  InitialConfig initial;
  TimeConfig time;
  NumericsConfig numerics;
  PoissonConfig pressure;
  OutputConfig output;
  ParallelConfig parallel;
  TuningConfig tuning;
  std::vector<ScalarConfig> scalars;                      ///< transported scalars (deck section `scalars`)
  std::vector<BodyConfig> bodies;                         ///< immersed solid bodies (deck section `bodies`)
  std::vector<ProbeConfig> probes;                        ///< points sampled every step (deck section `probes`)
  std::vector<LineConfig> lines;                          ///< lines sampled at intervals (deck section `lines`)
  std::vector<PlaneConfig> planes;                        ///< planes of cells written at intervals (`planes`)
  StatisticsConfig statistics;                            ///< running time averages (deck section `statistics`)
  std::vector<std::pair<std::string, double>> constants;  ///< deck section `constants`, for expressions
  std::string source;  ///< where the deck came from (a path, or "<embedded default>")

  bool operator==(const Deck&) const = default;
};

}  // namespace eddy::config
