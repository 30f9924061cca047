#include "run/statistics_files.hpp"

#include "config/names.hpp"
#include "config/print.hpp"
#include "io/block_layout.hpp"
#include "io/collective.hpp"
#include "io/text_file.hpp"
#include "io/xdmf.hpp"
#include "physics/wall_units.hpp"

#include <cstdio>
#include <sstream>
#include <type_traits>
#include <variant>

namespace eddy::run {
namespace {

std::string numbered(const std::string& stem, long long step, const std::string& extension) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06lld%s", stem.c_str(), step, extension.c_str());
  return name;
}

// What the profiles file says about itself, in order: the `# key = value` lines of the CSV, the attributes of the HDF5.
io::Attributes profile_header(const physics::StatisticsProfiles& profiles, const physics::AveragingWindow& window,
                              const config::Deck& deck) {
  std::string averaged;
  for (int a = 0; a < deck.domain.dimensions; ++a) {
    if (a != profiles.axis) averaged += (averaged.empty() ? "" : " ") + config::axis_letter(a);
  }
  io::Attributes header{{"axis", config::axis_letter(profiles.axis)},
                        {"averaged_over", averaged},
                        {"start_time", window.start},
                        {"end_time", window.end},
                        {"samples", static_cast<long long>(window.samples)},
                        {"viscosity", deck.physics.viscosity},
                        {"walls", physics::profile_walls(profiles.axis, deck)}};
  if (const auto units = physics::wall_units(profiles, deck)) {
    header.emplace_back("half_height", units->half_height);
    header.emplace_back("bulk_velocity", units->bulk_velocity);
    header.emplace_back("friction_velocity", units->friction_velocity);
    header.emplace_back("re_tau", units->re_tau);
    header.emplace_back("skin_friction", units->skin_friction);
  }
  for (const auto& nusselt : physics::wall_nusselt(profiles, deck)) {
    header.emplace_back("nusselt_" + nusselt.scalar + "_" + nusselt.face, nusselt.value);
  }
  return header;
}

std::string profiles_text(const physics::StatisticsProfiles& profiles, const io::Attributes& header,
                          const config::Deck& deck) {
  std::ostringstream out;
  out.precision(10);
  out << "# eddy time averages of '" << deck.name << "' along " << config::axis_letter(profiles.axis)
      << "; columns uu, uv, ...: covariances of the fluctuations <a'b'>\n";
  for (const auto& [key, value] : header) {
    out << "# " << key << " = ";
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, double> ||
                        std::is_same_v<std::decay_t<decltype(v)>, long long> ||
                        std::is_same_v<std::decay_t<decltype(v)>, std::string>) {
            out << v;
          }
        },
        value);
    out << "\n";
  }
  out << config::axis_letter(profiles.axis);
  for (const auto& column : profiles.columns) out << "," << column;
  out << "\n";
  for (std::size_t m = 0; m < profiles.coordinate.size(); ++m) {
    out << profiles.coordinate[m];
    for (const auto& values : profiles.values) out << "," << values[m];
    out << "\n";
  }
  return out.str();
}

// The profiles as HDF5: one 1D dataset per column and one of the coordinate, named after the axis (rank 0 alone).
void write_profiles_h5(const std::filesystem::path& path, const physics::StatisticsProfiles& profiles,
                       const io::Attributes& header) {
  const std::vector<hsize_t> dims{profiles.coordinate.size()};
  std::vector<io::BlockDataset> datasets{
      {config::axis_letter(profiles.axis), dims, {0}, dims, profiles.coordinate.data(), {}}};
  for (std::size_t c = 0; c < profiles.columns.size(); ++c) {
    datasets.push_back({profiles.columns[c], dims, {0}, dims, profiles.values[c].data(), {}});
  }
  io::write_block_file_atomically(path, MPI_COMM_SELF, io::WriteMode::token_passing, header, datasets);
}

void write_means(const physics::FlowStatistics& statistics, const grid::Decomposition& decomp,
                 parallel::Context& context, const std::filesystem::path& folder, io::WriteMode mode, long long step) {
  const auto means = statistics.cell_means();
  const io::BlockLayout layout = io::block_layout(decomp);
  std::vector<std::vector<double>> host(means.size());
  std::vector<io::BlockDataset> datasets;
  for (std::size_t c = 0; c < means.size(); ++c) {
    const auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), means[c].second);
    host[c].assign(mirror.data(), mirror.data() + mirror.size());
    datasets.push_back({means[c].first, layout.global_dims, layout.offset, layout.count, host[c].data(), {}});
  }
  const auto& window = statistics.window();
  const auto& g = decomp.global;
  const io::Attributes attributes{
      {"time", window.end},
      {"step", step},
      {"start_time", window.start},
      {"end_time", window.end},
      {"samples", window.samples},
      {"cells", std::vector<long long>{g.cells[0], g.cells[1], g.cells[2]}},
      {"origin", std::vector<double>{g.origin[0], g.origin[1], g.origin[2]}},
      {"spacing", std::vector<double>{g.spacing(0), g.spacing(1), g.spacing(2)}},
  };
  const std::string name = numbered("means", step, ".h5");
  io::write_block_file_atomically(folder / name, context.comm(), mode, attributes, datasets);
  io::XdmfStep entry{step, window.end, name, {}};
  for (const auto& mean : means) entry.arrays.push_back({mean.first, 1});
  const io::XdmfGrid grid = io::xdmf_grid_of(g);
  if (context.rank() == 0)
    io::write_text_atomically(folder / numbered("means", step, ".xmf"), io::xdmf_time_series(grid, {entry}));
}

}  // namespace

std::string write_statistics_files(const physics::FlowStatistics& statistics, const config::Deck& deck,
                                   const grid::Decomposition& decomp, parallel::Context& context,
                                   const std::filesystem::path& run_dir, io::WriteMode mode, long long step) {
  const std::filesystem::path folder = run_dir / "statistics";
  io::run_on_rank0(context.comm(), [&] { std::filesystem::create_directories(folder); });
  write_means(statistics, decomp, context, folder, mode, step);
  if (!statistics.has_profiles()) return "";
  const auto profiles = statistics.profiles(context.comm());
  const io::Attributes header = profile_header(profiles, statistics.window(), deck);
  io::run_on_rank0(context.comm(), [&] {
    io::write_text_atomically(folder / numbered("profiles", step, ".csv"), profiles_text(profiles, header, deck));
    write_profiles_h5(folder / numbered("profiles", step, ".h5"), profiles, header);
  });
  const auto units = physics::wall_units(profiles, deck);
  if (!units) return "";
  char text[200];
  std::snprintf(text, sizeof text, "u_tau %.5g, Re_tau %.4g, C_f %.4g, U_b %.5g (averages over t = %.6g to %.6g)",
                units->friction_velocity, units->re_tau, units->skin_friction, units->bulk_velocity,
                statistics.window().start, statistics.window().end);
  return text;
}

}  // namespace eddy::run
