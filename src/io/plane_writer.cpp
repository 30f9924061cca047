#include "io/plane_writer.hpp"

#include "io/collective.hpp"
#include "io/hdf5_file.hpp"
#include "io/text_file.hpp"
#include "io/xdmf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace eddy::io {
namespace {

// The layer's cell-centred values on this rank, (nx, ny, nz, quantity) with one cell along the axis: u, v, w (faces
// averaged to the centre), p, then the scalars.
using Layer = Kokkos::View<Real****, Kokkos::LayoutLeft, MemSpace>;

Layer local_layer(int axis, int local_index, const fields::FlowState& state,
                  const std::vector<fields::NamedField>& scalars, const grid::Decomposition& decomp) {
  Int3 extent = decomp.local_cells;
  extent[axis] = 1;
  const int quantities = 4 + static_cast<int>(scalars.size());
  Layer layer("io::plane_layer", extent[0], extent[1], extent[2], quantities);
  const int g = state.shape.ghost;
  const int si = g + (axis == 0 ? local_index : 0), sj = g + (axis == 1 ? local_index : 0),
            sk = g + (axis == 2 ? local_index : 0);
  const Field u = state.u, v = state.v, w = state.w, p = state.p;
  const bool three_d = decomp.global.dim == 3;
  const auto policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>({0, 0, 0}, {extent[0], extent[1], extent[2]});
  Kokkos::parallel_for(
      "io::plane_flow", policy, KOKKOS_LAMBDA(int a, int b, int c) {
        const int i = a + si, j = b + sj, k = c + sk;
        layer(a, b, c, 0) = Real(0.5) * (u(i - 1, j, k) + u(i, j, k));
        layer(a, b, c, 1) = Real(0.5) * (v(i, j - 1, k) + v(i, j, k));
        layer(a, b, c, 2) = three_d ? Real(0.5) * (w(i, j, k - 1) + w(i, j, k)) : Real(0);
        layer(a, b, c, 3) = p(i, j, k);
      });
  for (std::size_t s = 0; s < scalars.size(); ++s) {
    const Field f = scalars[s].field;
    const int q = 4 + static_cast<int>(s);
    Kokkos::parallel_for(
        "io::plane_scalar", policy,
        KOKKOS_LAMBDA(int a, int b, int c) { layer(a, b, c, q) = f(a + si, b + sj, c + sk); });
  }
  return layer;
}

}  // namespace

PlaneLayer plane_layer(const config::PlaneConfig& plane, const grid::GlobalGrid& grid) {
  const int index = grid.cell_at(plane.axis, plane.at);
  return {index, grid.centre(plane.axis, index)};
}

void write_plane(const config::PlaneConfig& plane, const fields::FlowState& state,
                 const std::vector<fields::NamedField>& scalars, const grid::Decomposition& decomp,
                 parallel::Context& context, const std::filesystem::path& run_dir, double time, long long step) {
  const int axis = plane.axis;
  const PlaneLayer where = plane_layer(plane, decomp.global);
  const int local_index = where.index - decomp.offset[axis];
  const bool holds = local_index >= 0 && local_index < decomp.local_cells[axis];
  const int quantities = 4 + static_cast<int>(scalars.size());
  Int3 global = decomp.global.cells;
  global[axis] = 1;
  const std::size_t plane_cells = static_cast<std::size_t>(global[0]) * global[1] * global[2];

  // Each rank's share, scattered into the global layer (quantity slowest, x fastest), summed on rank 0.
  std::vector<double> values(plane_cells * quantities, 0.0);
  if (holds) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                          local_layer(axis, local_index, state, scalars, decomp));
    Int3 offset = decomp.offset;
    offset[axis] = 0;
    for (int q = 0; q < quantities; ++q) {
      for (int c = 0; c < static_cast<int>(host.extent(2)); ++c) {
        for (int b = 0; b < static_cast<int>(host.extent(1)); ++b) {
          for (int a = 0; a < static_cast<int>(host.extent(0)); ++a) {
            const std::size_t cell =
                (static_cast<std::size_t>(c + offset[2]) * global[1] + (b + offset[1])) * global[0] + (a + offset[0]);
            values[q * plane_cells + cell] = host(a, b, c, q);
          }
        }
      }
    }
  }
  const int root = 0;
  MPI_Reduce(context.rank() == root ? MPI_IN_PLACE : values.data(), values.data(), static_cast<int>(values.size()),
             MPI_DOUBLE, MPI_SUM, root, context.comm());

  run_on_rank0(context.comm(), [&] {
    const std::filesystem::path folder = run_dir / "planes";
    std::filesystem::create_directories(folder);
    // The velocity interleaved per cell, as in the field files.
    std::vector<double> velocity(plane_cells * 3);
    for (std::size_t cell = 0; cell < plane_cells; ++cell) {
      for (int c = 0; c < 3; ++c) velocity[3 * cell + c] = values[c * plane_cells + cell];
    }
    const std::vector<hsize_t> dims{hsize_t(global[2]), hsize_t(global[1]), hsize_t(global[0])};
    const std::vector<hsize_t> zero{0, 0, 0};
    std::vector<BlockDataset> datasets;
    datasets.push_back({"velocity",
                        {dims[0], dims[1], dims[2], 3},
                        {0, 0, 0, 0},
                        {dims[0], dims[1], dims[2], 3},
                        velocity.data(),
                        {}});
    datasets.push_back({"pressure", dims, zero, dims, values.data() + 3 * plane_cells, {}});
    for (std::size_t s = 0; s < scalars.size(); ++s) {
      datasets.push_back({scalars[s].name, dims, zero, dims, values.data() + (4 + s) * plane_cells, {}});
    }
    const auto& g = decomp.global;
    Real3 origin = g.origin, spacing{g.spacing(0), g.spacing(1), g.spacing(2)};
    origin[axis] = g.face(axis, where.index);
    const Attributes attributes{
        {"time", time},
        {"step", step},
        {"axis", static_cast<long long>(axis)},
        {"index", static_cast<long long>(where.index)},
        {"position", where.position},
        {"dimensions", static_cast<long long>(g.dim)},
        {"cells", std::vector<long long>{global[0], global[1], global[2]}},
        {"origin", std::vector<double>{origin[0], origin[1], origin[2]}},
        {"spacing", std::vector<double>{spacing[0], spacing[1], spacing[2]}},
    };
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%06lld", step);
    const std::string name = plane.name + suffix;
    write_block_file_atomically(folder / (name + ".h5"), MPI_COMM_SELF, WriteMode::token_passing, attributes, datasets);
    XdmfStep entry{step, time, name + ".h5", {{"velocity", 3}, {"pressure", 1}}};
    for (const auto& scalar : scalars) entry.arrays.push_back({scalar.name, 1});
    XdmfGrid layer = xdmf_grid_of(g);
    layer.cells = global;
    layer.origin = origin;
    if (!layer.nodes[axis].empty()) layer.nodes[axis] = {g.face(axis, where.index), g.face(axis, where.index + 1)};
    write_text_atomically(folder / (name + ".xmf"), xdmf_time_series(layer, {entry}));
  });
}

}  // namespace eddy::io
