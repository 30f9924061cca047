#include "io/checkpoint.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "grid/index_ranges.hpp"
#include "io/block_layout.hpp"
#include "io/checksum.hpp"
#include "io/collective.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <system_error>
#include <type_traits>

namespace eddy::io {

namespace {

using OwnedValues = Kokkos::View<Real****, Kokkos::LayoutLeft, MemSpace>;  // (nx, ny, nz, field)
using HostValues = Checkpointer::HostValues;

/// Prefix of the datasets of warm-start fields.
const std::string warm_start_prefix = "warm_start_";

/// The datasets of a checkpoint and the fields they hold: u, v, w, p, then /scalar_<name> for every scalar and
/// /warm_start_<name> for every warm-start field.
std::vector<fields::NamedField> stored_fields(const fields::FlowState& state,
                                              const std::vector<fields::NamedField>& scalars,
                                              const std::vector<fields::NamedField>& warm_start) {
  std::vector<fields::NamedField> stored{{"u", state.u}, {"v", state.v}, {"w", state.w}, {"p", state.p}};
  for (const auto& scalar : scalars) stored.push_back({"scalar_" + scalar.name, scalar.field});
  for (const auto& field : warm_start) stored.push_back({warm_start_prefix + field.name, field.field});
  return stored;
}

/// Copies the owned values of `field` into slot `f` of `owned`.
void pack_owned(const Field& field, const OwnedValues& owned, int f, const fields::LocalShape& shape) {
  const int g = shape.ghost;
  Kokkos::parallel_for(
      "io::pack_owned", grid::owned_cells(shape),
      KOKKOS_LAMBDA(int i, int j, int k) { owned(i - g, j - g, k - g, f) = field(i, j, k); });
}

/// `owned` readable on the host: itself where it lies in host memory, else copied into `kept` (reallocated when its
/// extents differ).
template <class Space>
HostValues on_host(const Kokkos::View<Real****, Kokkos::LayoutLeft, Space>& owned, HostValues& kept) {
  if constexpr (std::is_same_v<typename HostValues::memory_space, Space>) {
    return owned;
  } else {
    bool fits = kept.is_allocated();
    for (int a = 0; a < 4; ++a) fits = fits && kept.extent(a) == owned.extent(a);
    if (!fits) {
      kept = HostValues();  // freed before the next is taken
      kept = HostValues(Kokkos::view_alloc(Kokkos::WithoutInitializing, "io::checkpoint_host_values"), owned.extent(0),
                        owned.extent(1), owned.extent(2), owned.extent(3));
    }
    Kokkos::deep_copy(kept, owned);
    return kept;
  }
}

/// Copies slot `f` of `owned` into the owned values of `field`.
void unpack_owned(const OwnedValues& owned, int f, const Field& field, const fields::LocalShape& shape) {
  const int g = shape.ghost;
  Kokkos::parallel_for(
      "io::unpack_owned", grid::owned_cells(shape),
      KOKKOS_LAMBDA(int i, int j, int k) { field(i, j, k) = owned(i - g, j - g, k - g, f); });
}

/// Names joined with commas (scalar names are letters, digits and '_').
std::string join_names(const std::vector<std::string>& names) {
  std::string joined;
  for (const auto& name : names) joined += (joined.empty() ? "" : ",") + name;
  return joined;
}

/// The scalar names a checkpoint holds (none when it has no `scalars` attribute).
std::vector<std::string> stored_scalar_names(const H5Reader& file) {
  std::vector<std::string> names;
  if (!file.has_attribute("scalars")) return names;
  std::istringstream list(file.read_string("scalars"));
  for (std::string name; std::getline(list, name, ',');) names.push_back(name);
  return names;
}

/// "temperature, dye" or "none".
std::string listed(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// Checkpoints in `directory` by step.
std::vector<std::pair<long long, std::filesystem::path>> list_checkpoints(const std::filesystem::path& directory) {
  std::vector<std::pair<long long, std::filesystem::path>> found;
  if (!std::filesystem::is_directory(directory)) return found;
  const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    std::smatch match;
    if (std::regex_match(name, match, pattern)) found.emplace_back(std::stoll(match[1].str()), entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string triple(const auto& values) {
  if (values.size() != 3) return "(unreadable)";
  std::ostringstream text;
  text << values[0] << " x " << values[1] << " x " << values[2];
  return text.str();
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

std::string Checkpointer::file_name(long long step) {
  char name[48];
  std::snprintf(name, sizeof(name), "checkpoint_%06lld.h5", step);
  return name;
}

Checkpointer::Checkpointer(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                           parallel::Context& context, const std::filesystem::path& run_dir, std::string deck_text)
    : deck_(deck),
      decomp_(decomp),
      shape_(shape),
      context_(&context),
      directory_(run_dir / "checkpoints"),
      deck_text_(std::move(deck_text)),
      mode_(write_mode(deck.tuning.hdf5_writes)) {}

std::filesystem::path Checkpointer::write(const fields::FlowState& state, double time, long long step, double dt,
                                          const std::vector<fields::NamedField>& scalars,
                                          const std::vector<fields::NamedField>& warm_start,
                                          const std::vector<std::pair<std::string, double>>& numbers) {
  ProfileRegion region("io::checkpoint");
  run_on_rank0(context_->comm(), [&] { std::filesystem::create_directories(directory_); });
  const auto stored = stored_fields(state, scalars, warm_start);
  const int count_fields = static_cast<int>(stored.size());
  OwnedValues owned("io::checkpoint_values", shape_.cells[0], shape_.cells[1], shape_.cells[2], count_fields);
  for (int f = 0; f < count_fields; ++f) pack_owned(stored[f].field, owned, f, shape_);
  const BlockLayout layout = block_layout(decomp_);
  std::vector<std::uint64_t> checksums(stored.size());
  for (int f = 0; f < count_fields; ++f)
    checksums[f] = sum_checksums(context_->comm(), block_checksum(owned, f, layout));
  const HostValues host = on_host(owned, host_values_);

  const auto& dims = layout.global_dims;
  const auto& offset = layout.offset;
  const auto& count = layout.count;
  const std::size_t block = static_cast<std::size_t>(decomp_.local_cell_count());
  std::vector<BlockDataset> datasets;
  for (int f = 0; f < count_fields; ++f) {
    const Real* data = host.data() + static_cast<std::size_t>(f) * block;
    datasets.push_back({stored[f].name, dims, offset, count, data, {{"checksum", checksums[f]}}});
  }
  const auto& d = deck_.domain;
  Attributes attributes{
      {"time", time},
      {"step", step},
      {"dt", dt},
      {"deck", deck_text_},
      {"eddy_version", std::string(EDDY_VERSION)},
      {"precision", std::string(precision_name)},
      {"dimensions", static_cast<long long>(d.dimensions)},
      {"cells", std::vector<long long>{d.cells[0], d.cells[1], d.cells[2]}},
      {"length", std::vector<double>{d.length[0], d.length[1], d.length[2]}},
      {"origin", std::vector<double>{d.origin[0], d.origin[1], d.origin[2]}},
      {"viscosity", deck_.physics.viscosity},
      {"density", deck_.physics.density},
  };
  for (const auto& [name, value] : numbers) attributes.emplace_back(name, value);
  std::vector<std::string> scalar_names;
  for (const auto& scalar : scalars) scalar_names.push_back(scalar.name);
  if (!scalar_names.empty()) attributes.emplace_back("scalars", join_names(scalar_names));
  for (const auto& scalar : scalars) {
    if (const auto* config = scalar_config(scalar.name)) {
      attributes.emplace_back("diffusivity_" + scalar.name, config->diffusivity);
    }
  }
  const std::filesystem::path final_path = directory_ / file_name(step);
  const std::filesystem::path tmp_path = final_path.string() + ".tmp";
  try {
    write_block_file(tmp_path, context_->comm(), mode_, attributes, datasets);
  } catch (const Error&) {  // a partial file holds nothing to restart from, and a full disk needs its space
    run_on_rank0(context_->comm(), [&] {
      std::error_code ignored;
      std::filesystem::remove(tmp_path, ignored);
    });
    throw;
  }
  run_on_rank0(context_->comm(), [&] {
    std::filesystem::rename(tmp_path, final_path);
    remove_old_checkpoints(step);
  });
  return final_path;
}

void Checkpointer::remove_old_checkpoints(long long newest_step) const {
  const int keep = deck_.output.keep_checkpoints;
  if (keep <= 0) return;
  auto found = list_checkpoints(directory_);
  std::erase_if(found, [&](const auto& entry) { return entry.first >= newest_step; });
  const long long older_to_keep = keep - 1;
  for (long long n = 0; n + older_to_keep < static_cast<long long>(found.size()); ++n) {
    std::filesystem::remove(found[static_cast<std::size_t>(n)].second);
  }
}

std::filesystem::path Checkpointer::resolve(const std::string& path_or_latest) const {
  std::string resolved;
  run_on_rank0(context_->comm(), [&] {
    if (path_or_latest == "latest") {
      const auto found = list_checkpoints(directory_);
      if (found.empty()) {
        throw Error("--restart latest: no checkpoint in '" + directory_.string() +
                    "' (checkpoint_NNNNNN.h5); give a checkpoint path instead");
      }
      resolved = found.back().second.string();
      return;
    }
    for (const auto& candidate : {std::filesystem::path(path_or_latest), directory_ / path_or_latest}) {
      if (std::filesystem::exists(candidate)) {
        resolved = candidate.string();
        return;
      }
    }
    throw Error("--restart: checkpoint '" + path_or_latest + "' does not exist (also looked in '" +
                directory_.string() + "')");
  });
  return broadcast_string(context_->comm(), resolved);
}

void Checkpointer::check_compatible(const H5Reader& file, const std::filesystem::path& path) const {
  // Checkpoints from before the precision was stored are double.
  const std::string precision = file.has_attribute("precision") ? file.read_string("precision") : "double";
  if (precision != precision_name) {
    throw Error("checkpoint '" + path.string() + "' holds " + precision + "-precision fields; this eddy is built in " +
                precision_name + " precision (EDDY_PRECISION=" + precision_name +
                "); restart it with a build of EDDY_PRECISION=" + precision + ", or start afresh");
  }
  const auto& d = deck_.domain;
  const auto cells = file.read_integers("cells");
  const auto length = file.read_doubles("length");
  const bool same_grid = cells.size() == 3 && length.size() == 3 && cells[0] == d.cells[0] && cells[1] == d.cells[1] &&
                         cells[2] == d.cells[2] && close(length[0], d.length[0]) && close(length[1], d.length[1]) &&
                         close(length[2], d.length[2]);
  if (!same_grid) {
    throw Error("checkpoint '" + path.string() + "' is for a grid of " + triple(cells) + " cells and length " +
                triple(length) + "; this deck has " + triple(d.cells) + " cells and length " + triple(d.length) +
                "; restart with the deck of that run");
  }
  const long long dimensions = file.read_integer("dimensions");
  const double viscosity = file.read_double("viscosity");
  const double density = file.read_double("density");
  if (dimensions != d.dimensions || !close(viscosity, deck_.physics.viscosity) ||
      !close(density, deck_.physics.density)) {
    std::ostringstream text;
    text << "checkpoint '" << path.string() << "' is of other physics (dimensions " << dimensions << ", viscosity "
         << viscosity << ", density " << density << ") than this deck (dimensions " << d.dimensions << ", viscosity "
         << deck_.physics.viscosity << ", density " << deck_.physics.density << ")";
    throw Error(text.str());
  }
}

const config::ScalarConfig* Checkpointer::scalar_config(const std::string& name) const {
  for (const auto& scalar : deck_.scalars) {
    if (scalar.name == name) return &scalar;
  }
  return nullptr;
}

void Checkpointer::check_scalars(const H5Reader& file, const std::filesystem::path& path,
                                 const std::vector<fields::NamedField>& scalars) const {
  const std::vector<std::string> stored = stored_scalar_names(file);
  std::vector<std::string> wanted;
  for (const auto& scalar : scalars) wanted.push_back(scalar.name);
  const auto holds = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (const auto& name : wanted) {
    if (!holds(stored, name)) {
      throw Error("checkpoint '" + path.string() + "' holds no scalar '" + name + "' (its scalars: " + listed(stored) +
                  "; this deck's scalars: " + listed(wanted) + "); restart with the deck of that run");
    }
  }
  for (const auto& name : stored) {
    if (!holds(wanted, name)) {
      throw Error("checkpoint '" + path.string() + "' holds scalar '" + name +
                  "', which this deck does not transport (its scalars: " + listed(stored) +
                  "; this deck's scalars: " + listed(wanted) + "); restart with the deck of that run");
    }
  }
  // Checkpoints written before the diffusivities were stored name only the scalars.
  for (const auto& name : wanted) {
    const auto* config = scalar_config(name);
    const std::string key = "diffusivity_" + name;
    if (config == nullptr || !file.has_attribute(key)) continue;
    const double stored_diffusivity = file.read_double(key);
    if (!close(stored_diffusivity, config->diffusivity)) {
      std::ostringstream text;
      text << "checkpoint '" << path.string() << "' transports scalar '" << name << "' with diffusivity "
           << stored_diffusivity << "; this deck gives it " << config->diffusivity
           << "; restart with the deck of that run";
      throw Error(text.str());
    }
  }
}

CheckpointMeta Checkpointer::load(const std::string& path_or_latest, fields::FlowState& state,
                                  const std::vector<fields::NamedField>& scalars,
                                  const std::vector<fields::NamedField>& warm_start,
                                  const std::vector<std::string>& numbers) const {
  ProfileRegion region("io::restart");
  CheckpointMeta meta;
  meta.path = resolve(path_or_latest);
  const BlockLayout layout = block_layout(decomp_);
  const auto& offset = layout.offset;
  const auto& count = layout.count;
  const std::size_t block = static_cast<std::size_t>(decomp_.local_cell_count());
  const auto stored = stored_fields(state, scalars, warm_start);
  const int count_fields = static_cast<int>(stored.size());
  const int required = count_fields - static_cast<int>(warm_start.size());  // the warm-start fields are optional
  OwnedValues owned("io::checkpoint_values", shape_.cells[0], shape_.cells[1], shape_.cells[2], count_fields);
  auto host = Kokkos::create_mirror_view(owned);
  std::vector<std::uint64_t> checksums(stored.size());
  std::vector<bool> held(stored.size(), true);
  run_collectively(context_->comm(), [&] {
    const H5Reader file(meta.path);
    check_compatible(file, meta.path);
    check_scalars(file, meta.path, scalars);
    meta.time = file.read_double("time");
    meta.step = file.read_integer("step");
    meta.dt = file.read_double("dt");
    meta.deck_text = file.read_string("deck");
    meta.eddy_version = file.read_string("eddy_version");
    for (const auto& name : numbers) {
      if (file.has_attribute(name)) meta.numbers.emplace_back(name, file.read_double(name));
    }
    for (int f = 0; f < count_fields; ++f) {
      const std::string& name = stored[f].name;
      if (f >= required && !file.has_dataset(name)) {
        held[f] = false;
        continue;
      }
      if (!file.has_dataset(name)) {
        throw Error("checkpoint '" + meta.path.string() + "' has no dataset /" + name);
      }
      const std::vector<hsize_t> dims = file.dims(name);
      if (dims != layout.global_dims) {
        throw Error("checkpoint '" + meta.path.string() + "': dataset /" + name + " has the wrong shape");
      }
      Real* data = host.data() + static_cast<std::size_t>(f) * block;
      file.read_block(name, offset, count, data);
      checksums[f] = file.read_uint64("checksum", name);
    }
  });
  Kokkos::deep_copy(owned, host);
  for (int f = 0; f < count_fields; ++f) {
    if (!held[f]) continue;
    if (sum_checksums(context_->comm(), block_checksum(owned, f, layout)) != checksums[f]) {
      throw Error("checkpoint '" + meta.path.string() + "' is corrupted: the checksum of /" + stored[f].name +
                  " does not match its data");
    }
  }
  for (int f = 0; f < count_fields; ++f) {
    if (!held[f]) continue;
    unpack_owned(owned, f, stored[f].field, shape_);
    if (f >= required) meta.warm_start.push_back(warm_start[f - required].name);
  }
  Kokkos::fence("io::unpack_owned");
  return meta;
}

}  // namespace eddy::io
