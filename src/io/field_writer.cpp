#include "io/field_writer.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "io/block_layout.hpp"
#include "io/collective.hpp"
#include "io/text_file.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>

namespace eddy::io {

const std::vector<std::string>& known_output_fields() {
  static const std::vector<std::string> names{"velocity", "pressure", "vorticity", "q_criterion"};
  return names;
}

std::string FieldWriter::file_name(long long step) {
  char name[48];
  std::snprintf(name, sizeof(name), "fields_%06lld.h5", step);
  return name;
}

FieldWriter::FieldWriter(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                         parallel::Context& context, const std::filesystem::path& run_dir, long long restart_step)
    : decomp_(decomp), context_(&context), run_dir_(run_dir), mode_(default_write_mode()) {
  const auto& known = known_output_fields();
  auto wants = [&](const std::string& name) {
    return std::find(deck.output.fields.begin(), deck.output.fields.end(), name) != deck.output.fields.end();
  };
  for (const auto& name : deck.output.fields) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw Error("output.fields: unknown field '" + name +
                  "'; known fields: velocity, pressure, vorticity, q_criterion");
    }
  }
  for (const auto& name : known) {
    const bool implied = name == "q_criterion" && decomp.global.dim == 3 && wants("vorticity");
    if (wants(name) || implied) arrays_.push_back({name, name == "velocity" ? 3 : 1});
  }
  const auto& g = decomp.global;
  xdmf_grid_ = {g.cells, g.origin, {g.spacing(0), g.spacing(1), g.spacing(2)}};
  cells_ = allocate_cell_quantities(shape);
  velocity_host_ = Kokkos::create_mirror_view(cells_.velocity);
  pressure_host_ = Kokkos::create_mirror_view(cells_.pressure);
  vorticity_host_ = Kokkos::create_mirror_view(cells_.vorticity);
  q_criterion_host_ = Kokkos::create_mirror_view(cells_.q_criterion);
  if (restart_step >= 0) run_on_rank0(context.comm(), [&] { index_existing_outputs(restart_step); });
}

void FieldWriter::index_existing_outputs(long long restart_step) {
  const std::regex pattern(R"(fields_(\d+)\.h5)");
  for (const auto& entry : std::filesystem::directory_iterator(run_dir_)) {
    const std::string name = entry.path().filename().string();
    std::smatch match;
    if (!std::regex_match(name, match, pattern)) continue;
    H5Reader file(entry.path());
    XdmfStep step{file.read_integer("step"), file.read_double("time"), name, {}};
    if (step.step > restart_step) continue;
    for (const auto& array : known_output_fields()) {
      if (file.has_dataset(array)) step.arrays.push_back({array, array == "velocity" ? 3 : 1});
    }
    steps_.push_back(step);
  }
  std::sort(steps_.begin(), steps_.end(), [](const XdmfStep& a, const XdmfStep& b) { return a.step < b.step; });
}

std::filesystem::path FieldWriter::write(const fields::FlowState& state, double time, long long step) {
  ProfileRegion region("io::field_output");
  compute_cell_quantities(state, decomp_.global, cells_);
  Kokkos::deep_copy(velocity_host_, cells_.velocity);
  Kokkos::deep_copy(pressure_host_, cells_.pressure);
  Kokkos::deep_copy(vorticity_host_, cells_.vorticity);
  Kokkos::deep_copy(q_criterion_host_, cells_.q_criterion);

  const BlockLayout layout = block_layout(decomp_);
  const auto& dims = layout.global_dims;
  const auto& offset = layout.offset;
  const auto& count = layout.count;
  std::vector<BlockDataset> datasets;
  for (const auto& array : arrays_) {
    BlockDataset d{array.name, dims, offset, count, nullptr, {}};
    if (array.name == "velocity") {
      d.global_dims.push_back(3);
      d.offset.push_back(0);
      d.count.push_back(3);
      d.data = velocity_host_.data();
    } else if (array.name == "pressure") {
      d.data = pressure_host_.data();
    } else if (array.name == "vorticity") {
      d.data = vorticity_host_.data();
    } else {
      d.data = q_criterion_host_.data();
    }
    datasets.push_back(std::move(d));
  }
  const auto& g = decomp_.global;
  const Attributes attributes{
      {"time", time},
      {"step", step},
      {"dimensions", static_cast<long long>(g.dim)},
      {"cells", std::vector<long long>{g.cells[0], g.cells[1], g.cells[2]}},
      {"origin", std::vector<double>{g.origin[0], g.origin[1], g.origin[2]}},
      {"spacing", std::vector<double>{g.spacing(0), g.spacing(1), g.spacing(2)}},
  };
  const std::string name = file_name(step);
  const std::filesystem::path path = run_dir_ / name;
  write_block_file(path, context_->comm(), mode_, attributes, datasets);

  run_on_rank0(context_->comm(), [&] {
    std::erase_if(steps_, [&](const XdmfStep& s) { return s.step >= step; });
    steps_.push_back({step, time, name, arrays_});
    write_text_atomically(run_dir_ / "fields.xmf", xdmf_time_series(xdmf_grid_, steps_));
  });
  return path;
}

}  // namespace eddy::io
