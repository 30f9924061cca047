#include "io/field_writer.hpp"

#include "config/output_fields.hpp"
#include "config/suggest.hpp"
#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "io/block_layout.hpp"
#include "io/collective.hpp"
#include "io/text_file.hpp"
#include "physics/immersed_boundary.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <regex>

namespace eddy::io {

namespace {

// The dataset of each fields file of a deck with bodies: the solid fraction of the cells.
constexpr const char* solid_array = "solid";

int components_of(const std::string& array) { return array == "velocity" ? 3 : 1; }

// What a dataset holds, in the deck's units (length L, time T, the scalars' own units), and where: every dataset is
// cell-centred, the velocity averaged from the faces it lives on.
Attributes dataset_attributes(const std::string& array, bool three_d) {
  std::string description, units;
  if (array == "velocity") {
    description = "velocity (u, v, w), averaged from the cell faces to the cell centre; w = 0 in 2D";
    units = "L/T";
  } else if (array == "pressure") {
    description = "pressure p (density included: p, not p/rho), defined up to a constant";
    units = "density * L^2/T^2";
  } else if (array == "vorticity") {
    description =
        three_d ? "vorticity magnitude |curl u| (3D; unsigned)" : "vorticity omega_z = dv/dx - du/dy (2D; signed)";
    units = "1/T";
  } else if (array == "q_criterion") {
    description = "Q-criterion 0.5 (|Omega|^2 - |S|^2) of the velocity gradient; Q > 0 marks vortex cores";
    units = "1/T^2";
  } else if (array == solid_array) {
    description = "fraction of the cell inside an immersed body (0 fluid, 1 solid), from " +
                  std::to_string(physics::solid_samples) +
                  " samples per axis; the pressure is NaN in the cells whose every face the forcing sets (inside "
                  "the body and along its surface)";
    units = "1";
  } else {
    description = "transported scalar '" + array + "'";
    units = "the scalar's own (as its deck values)";
  }
  return {{"description", description}, {"units", units}, {"location", std::string("cell centres")}};
}

}  // namespace

std::string FieldWriter::file_name(long long step) {
  char name[48];
  std::snprintf(name, sizeof(name), "fields_%06lld.h5", step);
  return name;
}

FieldWriter::FieldWriter(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                         parallel::Context& context, const std::filesystem::path& run_dir, long long restart_step)
    : decomp_(decomp), context_(&context), run_dir_(run_dir), mode_(write_mode(deck.tuning.hdf5_writes)) {
  const auto allowed = config::allowed_output_fields(deck);
  for (const auto& name : deck.output.fields) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      throw Error("output.fields: got '" + name + "'; allowed: " + config::join_words(allowed));
    }
  }
  const auto& flow = config::flow_output_fields();
  for (const auto& name : config::output_arrays(deck)) {
    arrays_.push_back({name, components_of(name)});
    if (std::find(flow.begin(), flow.end(), name) != flow.end()) continue;
    scalar_names_.push_back(name);
    scalar_cells_.emplace_back("io::" + name + "_cells", shape.cells[0], shape.cells[1], shape.cells[2]);
    scalar_host_.push_back(Kokkos::create_mirror_view(Kokkos::SharedHostPinnedSpace(), scalar_cells_.back()));
  }
  if (!deck.bodies.empty()) {
    arrays_.push_back({solid_array, 1});
    const auto& n = shape.cells;
    solid_host_ = decltype(solid_host_)("io::solid", n[0], n[1], n[2]);
    const auto fractions = physics::solid_fractions(deck, decomp);
    std::copy(fractions.begin(), fractions.end(), solid_host_.data());
    forced_cells_ = physics::forced_cells(deck, decomp);
  }
  const auto& g = decomp.global;
  xdmf_grid_ = xdmf_grid_of(g);
  cells_ = allocate_cell_quantities(shape);
  velocity_host_ = Kokkos::create_mirror_view(Kokkos::SharedHostPinnedSpace(), cells_.velocity);
  pressure_host_ = Kokkos::create_mirror_view(Kokkos::SharedHostPinnedSpace(), cells_.pressure);
  vorticity_host_ = Kokkos::create_mirror_view(Kokkos::SharedHostPinnedSpace(), cells_.vorticity);
  q_criterion_host_ = Kokkos::create_mirror_view(Kokkos::SharedHostPinnedSpace(), cells_.q_criterion);
  if (restart_step >= 0) {
    auto candidates = allowed;
    candidates.push_back(solid_array);
    run_on_rank0(context.comm(), [&] { index_existing_outputs(restart_step, candidates); });
  }
}

void FieldWriter::index_existing_outputs(long long restart_step, const std::vector<std::string>& candidates) {
  const std::regex pattern(R"(fields_(\d+)\.h5)");
  for (const auto& entry : std::filesystem::directory_iterator(run_dir_)) {
    const std::string name = entry.path().filename().string();
    std::smatch match;
    if (!std::regex_match(name, match, pattern)) continue;
    H5Reader file(entry.path());
    XdmfStep step{file.read_integer("step"), file.read_double("time"), name, {}};
    if (step.step > restart_step) continue;
    for (const auto& array : candidates) {
      if (file.has_dataset(array)) step.arrays.push_back({array, components_of(array)});
    }
    steps_.push_back(step);
  }
  std::sort(steps_.begin(), steps_.end(), [](const XdmfStep& a, const XdmfStep& b) { return a.step < b.step; });
}

void FieldWriter::stage_scalars(const std::vector<fields::NamedField>& scalars, int ghost) {
  for (std::size_t n = 0; n < scalar_names_.size(); ++n) {
    const auto& name = scalar_names_[n];
    const auto found =
        std::find_if(scalars.begin(), scalars.end(), [&](const fields::NamedField& s) { return s.name == name; });
    if (found == scalars.end()) throw Error("field output: the run has no scalar field '" + name + "' to write");
    copy_owned_cells(found->field, ghost, scalar_cells_[n]);
    Kokkos::deep_copy(scalar_host_[n], scalar_cells_[n]);
  }
}

std::filesystem::path FieldWriter::write(const fields::FlowState& state, const std::vector<fields::NamedField>& scalars,
                                         double time, long long step) {
  ProfileRegion region("io::field_output");
  compute_cell_quantities(state, decomp_, cells_);
  Kokkos::deep_copy(velocity_host_, cells_.velocity);
  Kokkos::deep_copy(pressure_host_, cells_.pressure);
  Kokkos::deep_copy(vorticity_host_, cells_.vorticity);
  Kokkos::deep_copy(q_criterion_host_, cells_.q_criterion);
  stage_scalars(scalars, state.shape.ghost);
  // Where the forcing sets every face of a cell, its pressure is the forcing's, not the flow's: left out as NaN
  // (ParaView and NumPy skip it).
  for (std::size_t n = 0; n < forced_cells_.size(); ++n) {
    if (forced_cells_[n]) pressure_host_.data()[n] = std::numeric_limits<Real>::quiet_NaN();
  }

  const BlockLayout layout = block_layout(decomp_);
  const auto& dims = layout.global_dims;
  const auto& offset = layout.offset;
  const auto& count = layout.count;
  std::vector<BlockDataset> datasets;
  const bool three_d = decomp_.global.dim == 3;
  for (const auto& array : arrays_) {
    BlockDataset d{array.name, dims, offset, count, {}, dataset_attributes(array.name, three_d)};
    if (array.name == "velocity") {
      d.global_dims.push_back(3);
      d.offset.push_back(0);
      d.count.push_back(3);
      d.data = velocity_host_.data();
    } else if (array.name == "pressure") {
      d.data = pressure_host_.data();
    } else if (array.name == "vorticity") {
      d.data = vorticity_host_.data();
    } else if (array.name == "q_criterion") {
      d.data = q_criterion_host_.data();
    } else if (array.name == solid_array) {
      d.data = solid_host_.data();
    } else {
      const auto n = std::find(scalar_names_.begin(), scalar_names_.end(), array.name) - scalar_names_.begin();
      d.data = scalar_host_[n].data();
    }
    datasets.push_back(std::move(d));
  }
  const auto& g = decomp_.global;
  Attributes attributes{
      {"time", time},
      {"step", step},
      {"dimensions", static_cast<long long>(g.dim)},
      {"cells", std::vector<long long>{g.cells[0], g.cells[1], g.cells[2]}},
      {"origin", std::vector<double>{g.origin[0], g.origin[1], g.origin[2]}},
      {"spacing", std::vector<double>{g.spacing(0), g.spacing(1), g.spacing(2)}},
  };
  for (int a = 0; a < 3; ++a) {
    if (g.stretched(a)) attributes.push_back({std::string(1, "xyz"[a]) + "_faces", g.faces[a]});
  }
  const std::string name = file_name(step);
  const std::filesystem::path path = run_dir_ / name;
  write_block_file_atomically(path, context_->comm(), mode_, attributes, datasets);
  run_on_rank0(context_->comm(), [&] {
    std::erase_if(steps_, [&](const XdmfStep& s) { return s.step >= step; });
    steps_.push_back({step, time, name, arrays_});
    write_text_atomically(run_dir_ / "fields.xmf", xdmf_time_series(xdmf_grid_, steps_));
  });
  return path;
}

}  // namespace eddy::io
