// Halo exchange on every process grid of the rank count: every owned cell holds a unique function of its global
// index and field; afterwards every ghost within the halo width (faces, edges, corners) holds the value of the cell it
// mirrors, with periodic wrap, and every other ghost still holds the poison it was given; the same after the exchange
// is rebound to other fields, and, where x is periodic and not split (one layer), with the rows' ends written to their
// x ghosts before an exchange of whole rows along y and z. With the packs beside the compute stream, begin() leaves
// the wraps onto a rank current for the compute stream even while the packs for its neighbours wait. An exchange
// timed on a clock holds the wait for late neighbours.
#include "config/names.hpp"
#include "core/error.hpp"
#include "grid/overlap_ranges.hpp"
#include "parallel/halo_exchange.hpp"
#include "process_grids.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

using eddy::Field;
using eddy::Int3;
using eddy::Real;
using eddy::config::CommBackend;

namespace {

constexpr Real poison = -1.0e30;

struct Case {
  int dim = 3;
  Int3 cells{9, 11, 10};
  std::array<bool, 3> periodic{false, false, false};
  Int3 process_grid{0, 0, 0};
  int ghost = 2;
  int width = 2;
  int field_count = 3;
  bool staggered = false;  // fields 0, 1, 2 are x-, y-, z-face velocities valued by face position
  CommBackend backend = CommBackend::mpi;

  std::string text() const {
    std::ostringstream out;
    out << dim << "D " << cells[0] << "x" << cells[1] << "x" << cells[2] << " periodic " << periodic[0] << periodic[1]
        << periodic[2] << " process grid " << process_grid[0] << "x" << process_grid[1] << "x" << process_grid[2]
        << " ghost " << ghost << " width " << width << (staggered ? " faces" : " cells") << " "
        << eddy::config::to_string(backend);
    return out.str();
  }
};

// The value a field holds at global index `global` (already wrapped into the domain) in exchange round `round`.
Real exact_value(const Case& c, int field, Int3 global, int round) {
  if (c.staggered && field < 3) {
    // Face on the high side of the cell along `field`, other coordinates at cell centres, in units of the spacing.
    Real position[3];
    for (int a = 0; a < 3; ++a) position[a] = global[a] + (a == field ? 1.0 : 0.5);
    return field * 1e6 + position[0] * 1e4 + position[1] * 1e2 + position[2] + 0.25 * round;
  }
  return ((field * 64.0 + global[2]) * 64.0 + global[1]) * 64.0 + global[0] + 1 + 0.5 * round;
}

// What view point p of field `field` must hold after an exchange: its own value if owned, the mirrored cell's value if
// within the width and inside the (periodic) domain, otherwise the poison.
Real expected_after_exchange(const Case& c, const eddy::grid::Decomposition& d, const eddy::fields::LocalShape& s,
                             int field, Int3 p, int round, bool* is_ghost) {
  Int3 global;
  *is_ghost = false;
  for (int a = 0; a < 3; ++a) {
    if (p[a] < s.ghost - c.width || p[a] >= s.ghost + s.cells[a] + c.width) return poison;
    *is_ghost = *is_ghost || p[a] < s.ghost || p[a] >= s.ghost + s.cells[a];
    global[a] = d.offset[a] + p[a] - s.ghost;
    const int n = c.cells[a];
    if (global[a] < 0 || global[a] >= n) {
      if (!c.periodic[a]) return poison;
      global[a] = (global[a] % n + n) % n;
    }
  }
  return exact_value(c, field, global, round);
}

// Sets owned cells to their exact value for `round`; ghosts get the poison when `poison_ghosts`.
void fill(const Case& c, const eddy::grid::Decomposition& d, const eddy::fields::LocalShape& s,
          std::vector<Field>& fields, int round, bool poison_ghosts) {
  for (int f = 0; f < c.field_count; ++f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[f]);
    for (int k = 0; k < s.extent(2); ++k) {
      for (int j = 0; j < s.extent(1); ++j) {
        for (int i = 0; i < s.extent(0); ++i) {
          const Int3 p{i, j, k};
          bool owned = true;
          Int3 global;
          for (int a = 0; a < 3; ++a) {
            owned = owned && p[a] >= s.ghost && p[a] < s.ghost + s.cells[a];
            global[a] = d.offset[a] + p[a] - s.ghost;
          }
          if (owned)
            host(i, j, k) = exact_value(c, f, global, round);
          else if (poison_ghosts)
            host(i, j, k) = poison;
        }
      }
    }
    Kokkos::deep_copy(fields[f], host);
  }
}

// Counts points of `box` (grown by `grow`) that differ from their expected value; reports the first one.
long long count_wrong(const Case& c, const eddy::grid::Decomposition& d, const eddy::fields::LocalShape& s,
                      const std::vector<Field>& fields, int round, Int3 lo, Int3 hi, std::string* first) {
  long long wrong = 0;
  for (int f = 0; f < c.field_count; ++f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[f]);
    for (int k = lo[2]; k < hi[2]; ++k) {
      for (int j = lo[1]; j < hi[1]; ++j) {
        for (int i = lo[0]; i < hi[0]; ++i) {
          bool ghost = false;
          const Real want = expected_after_exchange(c, d, s, f, {i, j, k}, round, &ghost);
          if (host(i, j, k) == want) continue;
          if (wrong++ == 0) {
            std::ostringstream out;
            out << "rank " << d.rank << " field " << f << " point (" << i << ", " << j << ", " << k << ") holds "
                << host(i, j, k) << ", expected " << want;
            *first = out.str();
          }
        }
      }
    }
  }
  return wrong;
}

// count_wrong() over what begin() must leave current for the kernels before finish(): the interior of the overlap
// split (grid/overlap_ranges.hpp) grown by the width; 0 where there is no interior.
long long count_wrong_near_interior(const Case& c, const eddy::grid::Decomposition& d,
                                    const eddy::fields::LocalShape& s, const std::vector<Field>& fields, int round,
                                    std::string* first) {
  const auto ranges = eddy::grid::overlap_ranges(d, s, c.width);
  if (ranges.interior.empty()) return 0;
  Int3 lo = ranges.interior.lo, hi = ranges.interior.hi;
  for (int a = 0; a < 3; ++a) lo[a] -= c.width, hi[a] += c.width;
  return count_wrong(c, d, s, fields, round, lo, hi, first);
}

// Where x is periodic and not split between ranks (one layer), the ends of the owned rows are written to their x
// ghosts on the host (as the velocity stages and the correction do) and the exchange fills the rest by whole rows:
// afterwards every point must hold what the full exchange gives.
void check_after_row_ends(const Case& c, const eddy::grid::Decomposition& d, const eddy::fields::LocalShape& s,
                          eddy::parallel::HaloExchange& halo, std::vector<Field>& fields) {
  const eddy::parallel::RowEndImages row_ends = halo.row_end_images();
  EXPECT_EQ(!row_ends.empty(), c.width == 1 && d.dims[0] == 1 && c.periodic[0]) << c.text();
  if (row_ends.empty()) {
    EXPECT_THROW(halo.exchange_after_row_ends(), eddy::Error);
    return;
  }
  fill(c, d, s, fields, 3, true);
  for (int f = 0; f < c.field_count; ++f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[f]);
    for (int k = 0; k < s.extent(2); ++k) {
      for (int j = 0; j < s.extent(1); ++j) {
        if (!row_ends.owned_row(j, k)) continue;
        for (int i = 0; i < s.extent(0); ++i) {
          const int image = row_ends.image_offset(i);
          if (image != 0) host(i + image, j, k) = host(i, j, k);
        }
      }
    }
    Kokkos::deep_copy(fields[f], host);
  }
  halo.exchange_after_row_ends();
  std::string first;
  EXPECT_EQ(count_wrong(c, d, s, fields, 3, {0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}, &first), 0)
      << c.text() << " after the rows' ends: " << first;
}

// The case's decomposition over the context's ranks (its Cartesian communicator is the caller's to free).
eddy::grid::Decomposition decompose_case(eddy::parallel::Context& context, const Case& c) {
  eddy::grid::GlobalGrid grid;
  grid.dim = c.dim;
  grid.cells = c.cells;
  grid.periodic = c.periodic;
  return eddy::grid::decompose(grid, context.comm(), c.process_grid);
}

void run_case(eddy::parallel::Context& context, const Case& c) {
  auto d = decompose_case(context, c);
  const eddy::fields::LocalShape s = eddy::fields::local_shape(d, c.ghost);
  std::vector<Field> fields;
  for (int f = 0; f < c.field_count; ++f) fields.push_back(eddy::fields::make_field("f" + std::to_string(f), s));
  eddy::parallel::HaloExchange halo(context, d, s, fields, c.width,
                                    eddy::parallel::choose_halo_transport(context, d, c.backend));
  const Int3 everything_lo{0, 0, 0}, everything_hi{s.extent(0), s.extent(1), s.extent(2)};
  std::string first;

  fill(c, d, s, fields, 0, true);
  halo.exchange();
  EXPECT_EQ(count_wrong(c, d, s, fields, 0, everything_lo, everything_hi, &first), 0) << c.text() << ": " << first;

  // Second round through begin()/finish(): new owned values; between the two calls, everything within `width` of the
  // interior must already be current (only ghosts of other ranks may still be stale).
  fill(c, d, s, fields, 1, false);
  halo.begin();
  Kokkos::fence();
  EXPECT_EQ(count_wrong_near_interior(c, d, s, fields, 1, &first), 0) << c.text() << " after begin(): " << first;
  halo.finish();
  EXPECT_EQ(count_wrong(c, d, s, fields, 1, everything_lo, everything_hi, &first), 0) << c.text() << ": " << first;

  // Third round on other fields of the same shape after rebind(): they are exchanged, the first set is left alone.
  std::vector<Field> others;
  for (int f = 0; f < c.field_count; ++f) others.push_back(eddy::fields::make_field("g" + std::to_string(f), s));
  halo.rebind(others);
  fill(c, d, s, others, 2, true);
  halo.exchange();
  EXPECT_EQ(count_wrong(c, d, s, others, 2, everything_lo, everything_hi, &first), 0)
      << c.text() << " after rebind(): " << first;
  EXPECT_EQ(count_wrong(c, d, s, fields, 1, everything_lo, everything_hi, &first), 0)
      << c.text() << ": the fields before rebind() changed: " << first;
  check_after_row_ends(c, d, s, halo, others);
  MPI_Comm_free(&d.comm);
}

std::vector<CommBackend> backends() {
  std::vector<CommBackend> list{CommBackend::mpi};
  if (eddy::parallel::Context::nccl_available()) {
    list.push_back(CommBackend::nccl);
    list.push_back(CommBackend::peer);  // the test's ranks share one node
  }
  return list;
}

// Ghost widths: (ghost 1, width 1), (ghost 2, width 1), (ghost 2, width 2).
const std::array<std::pair<int, int>, 3> ghost_and_width{{{1, 1}, {2, 1}, {2, 2}}};

// An exchange of the faces along one axis only (HaloExchange's face_axis): the ghost faces along it, over the owned
// points of the other axes, hold the mirrored cells' values; every other ghost holds the poison or, where a segment
// by whole rows spans the x ghosts, its right value.
void run_face_case(eddy::parallel::Context& context, const Case& c, int axis) {
  auto d = decompose_case(context, c);
  const eddy::fields::LocalShape s = eddy::fields::local_shape(d, c.ghost);
  std::vector<Field> fields;
  for (int f = 0; f < c.field_count; ++f) fields.push_back(eddy::fields::make_field("f" + std::to_string(f), s));
  eddy::parallel::HaloExchange faces(context, d, s, fields, c.width,
                                     eddy::parallel::choose_halo_transport(context, d, c.backend), axis);
  fill(c, d, s, fields, 0, true);
  faces.exchange();
  std::string first;
  for (int side = 0; side < 2; ++side) {
    Int3 lo{s.ghost, s.ghost, s.ghost}, hi{s.ghost + s.cells[0], s.ghost + s.cells[1], s.ghost + s.cells[2]};
    lo[axis] = side == 0 ? s.ghost - c.width : s.ghost + s.cells[axis];
    hi[axis] = lo[axis] + c.width;
    EXPECT_EQ(count_wrong(c, d, s, fields, 0, lo, hi, &first), 0)
        << c.text() << " faces along " << axis << ": " << first;
  }
  long long wrong = 0;
  for (int f = 0; f < c.field_count; ++f) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[f]);
    for (int k = 0; k < s.extent(2); ++k) {
      for (int j = 0; j < s.extent(1); ++j) {
        for (int i = 0; i < s.extent(0); ++i) {
          bool ghost = false;
          const Real want = expected_after_exchange(c, d, s, f, {i, j, k}, 0, &ghost);
          if (ghost && host(i, j, k) != poison && host(i, j, k) != want) ++wrong;
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0) << c.text() << " faces along " << axis << ": ghosts off the faces hold wrong values";
  MPI_Comm_free(&d.comm);
}

// Calls `check` with a 3D case for every transport, process grid, periodicity and ghost width.
template <class Check>
void for_every_3d_case(eddy::parallel::Context& context, const Check& check) {
  for (auto backend : backends()) {
    for (const auto& dims : eddy::test::process_grids(context.size(), 3)) {
      for (int mask = 0; mask < 8; ++mask) {
        for (auto [ghost, width] : ghost_and_width) {
          Case c;
          c.periodic = {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0};
          c.process_grid = dims;
          c.ghost = ghost;
          c.width = width;
          c.backend = backend;
          check(c);
        }
      }
    }
  }
}

}  // namespace

TEST(HaloExchange, FacesAlongOneAxisOnly) {
  eddy::parallel::Context context;
  for_every_3d_case(context, [&](Case c) {
    c.field_count = 1;
    for (int axis = 0; axis < 3; ++axis) run_face_case(context, c, axis);
  });
}

TEST(HaloExchange, CellFields3DEverySplitEveryPeriodicity) {
  eddy::parallel::Context context;
  for_every_3d_case(context, [&](const Case& c) { run_case(context, c); });
}

TEST(HaloExchange, CellFields2DEverySplitEveryPeriodicity) {
  eddy::parallel::Context context;
  for (auto backend : backends()) {
    for (const auto& dims : eddy::test::process_grids(context.size(), 2)) {
      for (int mask = 0; mask < 4; ++mask) {
        for (auto [ghost, width] : ghost_and_width) {
          Case c;
          c.dim = 2;
          c.cells = {9, 11, 1};
          c.periodic = {(mask & 1) != 0, (mask & 2) != 0, true};
          c.process_grid = dims;
          c.ghost = ghost;
          c.width = width;
          c.field_count = 2;
          c.backend = backend;
          run_case(context, c);
        }
      }
    }
  }
}

TEST(HaloExchange, StaggeredVelocityAndPressureInOneExchange) {
  eddy::parallel::Context context;
  for (auto backend : backends()) {
    for (const auto& dims : eddy::test::process_grids(context.size(), 3)) {
      for (int mask : {0, 1, 7}) {
        Case c;
        c.cells = {10, 9, 11};
        c.periodic = {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0};
        c.process_grid = dims;
        c.ghost = 2;
        c.width = 1;
        c.field_count = 4;
        c.staggered = true;
        c.backend = backend;
        run_case(context, c);
      }
    }
  }
}

// With the packs beside the compute stream (pack_alongside(), peer transport), begin() still leaves every ghost that
// a kernel between begin() and finish() may read current for kernels on the compute stream: the wraps onto this rank
// as well as the owned cells. Rank 0 starts the second exchange while its neighbours hold back their unpack of the
// first for a while, so its packs for them wait on the side stream; a copy on the compute stream alone (fenced alone)
// must still see the interior grown by the width current.
void check_wraps_current_while_packs_wait(eddy::parallel::Context& context, const Case& c) {
  auto d = decompose_case(context, c);
  const eddy::fields::LocalShape s = eddy::fields::local_shape(d, c.ghost);
  std::vector<Field> fields, seen;
  for (int f = 0; f < c.field_count; ++f) {
    fields.push_back(eddy::fields::make_field("f" + std::to_string(f), s));
    seen.push_back(eddy::fields::make_field("seen" + std::to_string(f), s));
  }
  eddy::parallel::HaloExchange halo(context, d, s, fields, c.width,
                                    eddy::parallel::choose_halo_transport(context, d, c.backend));
  halo.pack_alongside();
  fill(c, d, s, fields, 0, true);
  halo.begin();
  if (context.rank() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  halo.finish();
  fill(c, d, s, fields, 1, false);
  halo.begin();
  for (int f = 0; f < c.field_count; ++f) Kokkos::deep_copy(eddy::ExecSpace(), seen[f], fields[f]);
  eddy::ExecSpace().fence("test::compute_stream_only");
  std::string first;
  EXPECT_EQ(count_wrong_near_interior(c, d, s, seen, 1, &first), 0) << c.text() << " after begin(): " << first;
  halo.finish();
  EXPECT_EQ(count_wrong(c, d, s, fields, 1, {0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}, &first), 0)
      << c.text() << ": " << first;
  MPI_Comm_free(&d.comm);
}

TEST(HaloExchange, WrapsAreCurrentAfterBeginWhilePacksWait) {
  eddy::parallel::Context context;
  for (auto backend : backends()) {
    for (int mask : {6, 7}) {
      Case c;
      c.cells = {12, 10, 8};
      c.periodic = {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0};
      c.process_grid = {context.size(), 1, 1};
      c.ghost = 1;
      c.width = 1;
      c.backend = backend;
      check_wraps_current_while_packs_wait(context, c);
    }
  }
}

// An exchange timed on a clock adds the stretch from its pack's start to its unpack's start: on rank 0, whose
// neighbours start their exchange 200 ms late, that holds the wait for them, and lies within the wall time from
// before the exchange to the clock's reading. An exchange without messages (one rank) adds nothing.
TEST(HaloExchange, ClockHoldsTheWaitForLateNeighbours) {
  eddy::parallel::Context context;
  for (auto backend : backends()) {
    Case c;
    c.cells = {12, 10, 8};
    c.periodic = {true, false, false};
    c.process_grid = {context.size(), 1, 1};
    c.ghost = 1;
    c.width = 1;
    c.field_count = 1;
    c.backend = backend;
    auto d = decompose_case(context, c);
    const eddy::fields::LocalShape s = eddy::fields::local_shape(d, c.ghost);
    std::vector<Field> fields{eddy::fields::make_field("f", s)};
    fill(c, d, s, fields, 0, true);
    eddy::parallel::HaloExchange halo(context, d, s, fields, c.width,
                                      eddy::parallel::choose_halo_transport(context, d, c.backend));
    eddy::parallel::ExchangeClock clock;
    halo.time_on(clock);
    EXPECT_EQ(halo.timed(), context.size() > 1) << c.text();
    MPI_Barrier(context.comm());
    Kokkos::Timer wall;
    if (context.rank() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    halo.exchange();
    const double seconds = clock.take_seconds();
    const double elapsed = wall.seconds();
    if (context.rank() == 0) {
      if (context.size() > 1) {
        EXPECT_GE(seconds, 0.15) << c.text();
      } else {
        EXPECT_EQ(seconds, 0) << c.text();
      }
      EXPECT_LE(seconds, elapsed) << c.text();
    }
    std::string first;
    EXPECT_EQ(count_wrong(c, d, s, fields, 0, {0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}, &first), 0)
        << c.text() << ": " << first;
    EXPECT_EQ(clock.take_seconds(), 0) << c.text();
    MPI_Comm_free(&d.comm);
  }
}

TEST(HaloExchange, RejectsWidthsItCannotServe) {
  eddy::parallel::Context context;
  eddy::grid::GlobalGrid grid;
  grid.dim = 3;
  grid.cells = {4 * context.size(), 6, 6};
  grid.periodic = {true, true, true};
  auto d = eddy::grid::decompose(grid, context.comm(), {context.size(), 1, 1});
  const auto s = eddy::fields::local_shape(d, 2);
  auto field = eddy::fields::make_field("p", s);
  const auto transport = eddy::parallel::choose_halo_transport(context, d);
  EXPECT_THROW(eddy::parallel::HaloExchange(context, d, s, {field}, 3, transport), eddy::Error);
  EXPECT_THROW(eddy::parallel::HaloExchange(context, d, s, {field}, 0, transport), eddy::Error);
  eddy::parallel::HaloExchange halo(context, d, s, {field}, 2, transport);
  EXPECT_THROW(halo.finish(), eddy::Error);
  halo.begin();
  EXPECT_THROW(halo.begin(), eddy::Error);
  EXPECT_THROW(halo.rebind({field}), eddy::Error);
  halo.finish();
  EXPECT_THROW(halo.rebind({field, field}), eddy::Error);
  EXPECT_THROW(halo.rebind({eddy::fields::make_field("p1", eddy::fields::local_shape(d, 1))}), eddy::Error);
  MPI_Comm_free(&d.comm);
}
