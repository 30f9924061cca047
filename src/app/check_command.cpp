#include "check_command.hpp"

#include "config/memory_estimate.hpp"
#include "config/output_fields.hpp"
#include "config/print.hpp"
#include "deck_loading.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "grid/global_grid.hpp"
#include "io/json.hpp"

#include <cstdio>
#include <sstream>
#include <vector>

namespace eddy::app {
namespace {

std::string by_axis(const Int3& values, int dims) {
  std::string text = std::to_string(values[0]);
  for (int a = 1; a < dims; ++a) text += " x " + std::to_string(values[a]);
  return text;
}

long long product(const Int3& v) { return static_cast<long long>(v[0]) * v[1] * v[2]; }

std::string mebibytes(std::size_t bytes) {
  std::ostringstream out;
  out.precision(3);
  out << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return out.str();
}

std::string neighbour_line(const grid::Decomposition& d, int dims) {
  static const char* axes = "xyz";
  std::string text = "rank " + std::to_string(d.rank) + " at (" + std::to_string(d.coords[0]);
  for (int a = 1; a < dims; ++a) text += ", " + std::to_string(d.coords[a]);
  text += "):";
  for (int a = 0; a < dims; ++a) {
    text += std::string("  ") + axes[a] + " [" + std::to_string(d.neighbour[a][0]) + ", " +
            std::to_string(d.neighbour[a][1]) + "]";
  }
  return text;
}

std::string report(const config::Deck& deck, int ranks) {
  const auto grid = grid::global_grid(deck);
  const int dims = grid.dim;
  std::ostringstream out;
  out << "# eddy check: " << deck.source << " is valid. Resolved deck (defaults filled in):\n"
      << config::to_yaml(deck) << "---\n";
  out << "grid: " << by_axis(grid.cells, dims) << " cells (" << grid.total_cells() << " in all), spacing";
  for (int a = 0; a < dims; ++a) out << (a ? " x " : " ") << config::format_real(grid.spacing(a));
  out << ", periodic in";
  bool any_periodic = false;
  for (int a = 0; a < dims; ++a) {
    if (grid.periodic[a])
      out << " "
          << "xyz"[a];
    any_periodic = any_periodic || grid.periodic[a];
  }
  out << (any_periodic ? "" : " no axis") << "\n";
  for (int a = 0; a < dims; ++a) {
    if (!grid.stretched(a)) continue;
    out << "stretched "
        << "xyz"[a] << ": cells " << config::format_real(grid.smallest_width(a)) << " to "
        << config::format_real(grid.largest_width(a)) << " wide (the pressure solver relaxes lines along "
        << "xyz"[a] << ")\n";
  }

  const auto first = grid::plan_decomposition(grid, ranks, 0, deck.parallel.process_grid);
  Int3 smallest, largest;
  for (int a = 0; a < 3; ++a) {
    largest[a] = grid::block_size(grid.cells[a], first.dims[a], 0);
    smallest[a] = grid::block_size(grid.cells[a], first.dims[a], first.dims[a] - 1);
  }
  out << "decomposition over " << ranks << (ranks == 1 ? " rank" : " ranks") << ": process grid "
      << by_axis(first.dims, dims) << "\n"
      << "  local cells: smallest block " << by_axis(smallest, dims) << " (" << product(smallest) << "), largest "
      << by_axis(largest, dims) << " (" << product(largest) << ")\n"
      << "  neighbours (low, high per axis; -1 = physical boundary):\n";
  constexpr int listed = 16;  // beyond this, show the first and the last rank only
  for (int r = 0; r < ranks; ++r) {
    if (ranks > listed && r != 0 && r != ranks - 1) continue;
    if (ranks > listed && r == ranks - 1) out << "    ...\n";
    out << "    " << neighbour_line(grid::plan_decomposition(grid, ranks, r, deck.parallel.process_grid), dims) << "\n";
  }
  const auto arrays = config::output_arrays(deck);
  out << "field output (cell-centred datasets of each fields_NNNNNN.h5): ";
  for (std::size_t n = 0; n < arrays.size(); ++n) out << (n ? ", " : "") << arrays[n];
  out << (arrays.empty() ? "none" : "") << "\n";
  const int ghost = fields::LocalShape{}.ghost;
  out << "memory per rank (estimate, largest block, " << ghost << " ghost layer" << (ghost == 1 ? "" : "s")
      << "): " << mebibytes(config::estimate_bytes_per_rank(deck, largest, ghost)) << "\n";
  return out.str();
}

// The same facts as report(), as one JSON object for scripts.
std::string report_json(const config::Deck& deck, int ranks) {
  const auto grid = grid::global_grid(deck);
  const int dims = grid.dim;
  const auto first = grid::plan_decomposition(grid, ranks, 0, deck.parallel.process_grid);
  std::vector<long long> cells, process_grid, smallest, largest;
  std::vector<double> spacing;
  Int3 largest_block{1, 1, 1};
  for (int a = 0; a < dims; ++a) {
    cells.push_back(grid.cells[a]);
    spacing.push_back(grid.spacing(a));
    process_grid.push_back(first.dims[a]);
    largest_block[a] = grid::block_size(grid.cells[a], first.dims[a], 0);
    largest.push_back(largest_block[a]);
    smallest.push_back(grid::block_size(grid.cells[a], first.dims[a], first.dims[a] - 1));
  }
  const auto arrays = config::output_arrays(deck);
  const int ghost = fields::LocalShape{}.ghost;
  io::JsonObject json;
  json.set("valid", true)
      .set("deck", deck.source)
      .set("name", deck.name)
      .set("dimensions", dims)
      .set("cells", cells)
      .set("total_cells", grid.total_cells())
      .set("spacing", spacing)
      .set("ranks", ranks)
      .set("process_grid", process_grid)
      .set("smallest_block", smallest)
      .set("largest_block", largest)
      .set("output_fields", arrays)
      .set("memory_per_rank_bytes", static_cast<long long>(config::estimate_bytes_per_rank(deck, largest_block, ghost)))
      .set("resolved_deck", config::to_yaml(deck));
  return json.dump() + "\n";
}

}  // namespace

int run_check(const CommandLine& line, int rank) {
  try {
    const auto deck = load_deck(line);
    const auto text = line.json ? report_json(deck, line.ranks) : report(deck, line.ranks);
    if (rank == 0) std::fputs(text.c_str(), stdout);
    return 0;
  } catch (const Error& e) {
    if (rank == 0) {
      std::fprintf(stderr, "eddy: error: %s\n", e.what());
      if (line.json)
        std::fputs((io::JsonObject().set("valid", false).set("error", e.what()).dump() + "\n").c_str(), stdout);
    }
    return 2;
  }
}

}  // namespace eddy::app
