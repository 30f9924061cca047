#pragma once
// Shared set-up of the io tests: small decks, a scratch folder per test, and analytic fields written into a state.
#include "config/deck.hpp"
#include "core/error.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "grid/global_grid.hpp"
#include "io/collective.hpp"
#include "io/hdf5_file.hpp"

#include <mpi.h>
#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace eddy::io_test {

/// A deck for a box of `cells` (z = 1 in 2D) and `length`.
inline config::Deck make_deck(int dimensions, Int3 cells, std::array<double, 3> length,
                              std::array<double, 3> origin = {0, 0, 0}) {
  config::Deck deck;
  deck.domain.dimensions = dimensions;
  deck.domain.cells = cells;
  deck.domain.length = length;
  deck.domain.origin = origin;
  return deck;
}

/// The global grid of a deck (walls in x and y, periodic z as in 2D runs).
inline grid::GlobalGrid grid_of(const config::Deck& deck) {
  const auto& d = deck.domain;
  grid::GlobalGrid g{d.dimensions, d.cells, {}, {}, {false, false, d.dimensions == 2}, {}};
  for (int a = 0; a < 3; ++a) {
    g.length[a] = static_cast<Real>(d.length[a]);
    g.origin[a] = static_cast<Real>(d.origin[a]);
  }
  for (int a = 0; a < d.dimensions; ++a) {
    if (d.stretching[a].stretched()) g.faces[a] = grid::stretched_faces(d, a);
  }
  return g;
}

/// An empty scratch folder named after the test and the rank count, the same path on every rank.
inline std::filesystem::path scratch_folder(MPI_Comm comm, const std::string& name) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto path = std::filesystem::current_path() / ("io_scratch_" + name + "_np" + std::to_string(size));
  io::run_on_rank0(comm, [&] {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  });
  return path;
}

/// Fills u, v, w, p of `state`, ghosts included, with `value(quantity, x, y, z)` at each point's position
/// (quantity 0..2: the face centres of u, v, w; 3: the cell centre for p).
template <typename Function>
void fill_state(fields::FlowState& state, const grid::Decomposition& decomp, Function value) {
  const auto& grid = decomp.global;
  const int g = state.shape.ghost;
  Field fields[4] = {state.u, state.v, state.w, state.p};
  for (int q = 0; q < 4; ++q) {
    auto host = Kokkos::create_mirror_view(fields[q]);
    for (int k = 0; k < state.shape.extent(2); ++k) {
      for (int j = 0; j < state.shape.extent(1); ++j) {
        for (int i = 0; i < state.shape.extent(0); ++i) {
          const int index[3] = {i, j, k};
          Real position[3];
          for (int a = 0; a < 3; ++a) {
            position[a] = grid.position(a, decomp.offset[a] + index[a] - g, q == a);  // faces: high side
          }
          host(i, j, k) = value(q, position[0], position[1], position[2]);
        }
      }
    }
    Kokkos::deep_copy(fields[q], host);
  }
}

/// Fills the owned cells of the cell-centred `field` with `value(x, y, z)` at the cell centres; ghosts are NaN.
template <typename Function>
void fill_cells(const Field& field, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                Function value) {
  const auto& grid = decomp.global;
  const int g = shape.ghost;
  auto host = Kokkos::create_mirror_view(field);
  Kokkos::deep_copy(host, std::nan(""));
  for (int k = g; k < g + shape.cells[2]; ++k) {
    for (int j = g; j < g + shape.cells[1]; ++j) {
      for (int i = g; i < g + shape.cells[0]; ++i) {
        const int index[3] = {i, j, k};
        Real centre[3];
        for (int a = 0; a < 3; ++a) centre[a] = grid.position(a, decomp.offset[a] + index[a] - g, false);
        host(i, j, k) = value(centre[0], centre[1], centre[2]);
      }
    }
  }
  Kokkos::deep_copy(field, host);
}

/// A value that differs at every global cell and quantity and is exactly representable (for bit-exact checks).
inline Real cell_signature(int quantity, Int3 global_cell) {
  return quantity * 1.0e6 + global_cell[0] + 1.0e3 * global_cell[1] + 0.25 * global_cell[2] + 0.125;
}

/// Fills the owned values of `field` with cell_signature of `quantity`; ghosts are set to NaN so nothing may read them.
inline void fill_field_signature(const Field& field, int quantity, const fields::LocalShape& shape,
                                 const grid::Decomposition& decomp) {
  const int g = shape.ghost;
  auto host = Kokkos::create_mirror_view(field);
  for (int k = 0; k < shape.extent(2); ++k) {
    for (int j = 0; j < shape.extent(1); ++j) {
      for (int i = 0; i < shape.extent(0); ++i) {
        const bool owned =
            i >= g && j >= g && k >= g && i < g + shape.cells[0] && j < g + shape.cells[1] && k < g + shape.cells[2];
        host(i, j, k) = owned ? cell_signature(quantity, {decomp.offset[0] + i - g, decomp.offset[1] + j - g,
                                                          decomp.offset[2] + k - g})
                              : std::nan("");
      }
    }
  }
  Kokkos::deep_copy(field, host);
}

/// Fills the owned values of `state` with cell_signature (quantities 0..3); ghosts are set to NaN.
inline void fill_signature(fields::FlowState& state, const grid::Decomposition& decomp) {
  const Field fields[4] = {state.u, state.v, state.w, state.p};
  for (int q = 0; q < 4; ++q) fill_field_signature(fields[q], q, state.shape, decomp);
}

/// Makes the writers built for `deck` use `mode` (tuning.hdf5_writes).
inline void use_mode(config::Deck& deck, io::WriteMode mode) {
  deck.tuning.hdf5_writes =
      mode == io::WriteMode::token_passing ? config::Hdf5Writes::token_passing : config::Hdf5Writes::collective;
}

/// The write modes this build has: collective only with parallel HDF5.
inline std::vector<io::WriteMode> modes() {
#ifdef EDDY_HDF5_PARALLEL
  return {io::WriteMode::collective, io::WriteMode::token_passing};
#else
  return {io::WriteMode::token_passing};
#endif
}

/// Runs `write` with the process's file size limited to `limit` bytes (a full disk as far as writes can tell: past
/// it they fail with EFBIG) and returns its eddy::Error's message ("" if none).
inline std::string error_under_file_size_limit(rlim_t limit, const std::function<void()>& write) {
  std::string message;
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit previous{};
  getrlimit(RLIMIT_FSIZE, &previous);
  rlimit small = previous;
  small.rlim_cur = limit;
  setrlimit(RLIMIT_FSIZE, &small);
  try {
    write();
  } catch (const Error& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &previous);
  std::signal(SIGXFSZ, previous_handler);
  return message;
}

}  // namespace eddy::io_test
