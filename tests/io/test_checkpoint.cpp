// Checkpoint/restart: bit-identical round trip of the flow and the named scalars on the same rank count, correct
// values when read on another rank count (written on a half-size sub-communicator, read on all ranks), successive
// checkpoints of one writer each holding their own values, "latest" and pruning, refusal of truncated or corrupted
// files, of other grids or physics and of other scalars, checkpoints without scalars still serving decks without,
// the stored checksums' definition, and what a failed write says and leaves behind (a full disk simulated by a file
// size limit).
// Both HDF5 write modes where the build has them.
#include "core/error.hpp"
#include "io/checkpoint.hpp"
#include "io/hdf5_file.hpp"
#include "io_test_support.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace eddy;

/// Selects the HDF5 write mode for objects built after this call.
/// Number of owned values of `field` that differ from cell_signature of `quantity`.
long long count_field_mismatches(const Field& field, int quantity, const fields::LocalShape& shape,
                                 const grid::Decomposition& decomp) {
  const int g = shape.ghost;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  long long wrong = 0;
  for (int k = g; k < g + shape.cells[2]; ++k)
    for (int j = g; j < g + shape.cells[1]; ++j)
      for (int i = g; i < g + shape.cells[0]; ++i) {
        const Int3 cell{decomp.offset[0] + i - g, decomp.offset[1] + j - g, decomp.offset[2] + k - g};
        const Real expected = io_test::cell_signature(quantity, cell);
        if (std::memcmp(&host(i, j, k), &expected, sizeof(Real)) != 0) ++wrong;
      }
  return wrong;
}

/// Number of owned values of `state` that differ from cell_signature.
long long count_signature_mismatches(const fields::FlowState& state, const grid::Decomposition& decomp) {
  const Field fields[4] = {state.u, state.v, state.w, state.p};
  long long wrong = 0;
  for (int q = 0; q < 4; ++q) wrong += count_field_mismatches(fields[q], q, state.shape, decomp);
  return wrong;
}

/// Zeroed scalar fields called `names`.
std::vector<fields::NamedField> make_scalars(const std::vector<std::string>& names, const fields::LocalShape& shape) {
  std::vector<fields::NamedField> scalars;
  for (const auto& name : names) scalars.push_back({name, fields::make_field(name, shape)});
  return scalars;
}

/// Scalar n holds cell_signature of quantity 4 + n.
void fill_scalar_signatures(const std::vector<fields::NamedField>& scalars, const fields::LocalShape& shape,
                            const grid::Decomposition& decomp) {
  for (std::size_t n = 0; n < scalars.size(); ++n) {
    io_test::fill_field_signature(scalars[n].field, 4 + static_cast<int>(n), shape, decomp);
  }
}

/// Number of owned scalar values that differ from fill_scalar_signatures.
long long count_scalar_mismatches(const std::vector<fields::NamedField>& scalars, const fields::LocalShape& shape,
                                  const grid::Decomposition& decomp) {
  long long wrong = 0;
  for (std::size_t n = 0; n < scalars.size(); ++n) {
    wrong += count_field_mismatches(scalars[n].field, 4 + static_cast<int>(n), shape, decomp);
  }
  return wrong;
}

struct Setup {
  config::Deck deck;
  grid::Decomposition decomp;
  fields::LocalShape shape;
};

Setup make_setup(MPI_Comm comm, int dimensions = 3) {
  Setup s;
  s.deck = dimensions == 3 ? io_test::make_deck(3, {9, 7, 5}, {1.0, 2.0, 0.5})
                           : io_test::make_deck(2, {12, 10, 1}, {1, 1, 1});
  s.deck.physics.viscosity = 1e-3;
  s.decomp = grid::decompose(io_test::grid_of(s.deck), comm);
  s.shape = fields::local_shape(s.decomp, 1);
  return s;
}

/// A flow state and scalars to write: every owned value is its cell signature (io_test::fill_signature,
/// fill_scalar_signatures).
struct SignedFields {
  fields::FlowState state;
  std::vector<fields::NamedField> scalars;
};

SignedFields signed_fields(const Setup& s, const std::vector<std::string>& scalar_names) {
  SignedFields f{fields::FlowState::allocate(s.shape), make_scalars(scalar_names, s.shape)};
  io_test::fill_signature(f.state, s.decomp);
  fill_scalar_signatures(f.scalars, s.shape, s.decomp);
  return f;
}

TEST(Checkpoint, RoundTripIsBitIdentical) {
  for (auto mode : io_test::modes()) {
    parallel::Context context(MPI_COMM_WORLD);
    const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "roundtrip");
    auto s = make_setup(MPI_COMM_WORLD);
    io_test::use_mode(s.deck, mode);
    const auto [state, scalars] = signed_fields(s, {"temperature", "dye"});
    io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "name: roundtrip\n");
    const auto path = checkpointer.write(state, 0.625, 42, 1.0 / 3.0, scalars);
    EXPECT_EQ(path.filename(), "checkpoint_000042.h5");
    EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));

    auto restored = fields::FlowState::allocate(s.shape);
    const auto restored_scalars = make_scalars({"dye", "temperature"}, s.shape);  // matched by name, not order
    const auto meta = checkpointer.load("latest", restored, restored_scalars);
    EXPECT_EQ(meta.step, 42);
    EXPECT_EQ(meta.time, 0.625);
    EXPECT_EQ(meta.dt, 1.0 / 3.0);
    EXPECT_EQ(meta.deck_text, "name: roundtrip\n");
    EXPECT_EQ(meta.eddy_version, EDDY_VERSION);
    EXPECT_EQ(count_signature_mismatches(restored, s.decomp), 0);
    EXPECT_EQ(count_scalar_mismatches({restored_scalars[1], restored_scalars[0]}, s.shape, s.decomp), 0);
  }
}

// The host copy is kept from one checkpoint to the next: each checkpoint must hold the values of its own moment.
TEST(Checkpoint, EachCheckpointHoldsItsOwnValues) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "successive");
  auto s = make_setup(MPI_COMM_WORLD);
  auto state = fields::FlowState::allocate(s.shape);
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "name: successive\n");
  const auto first = checkpointer.write(state, 0.1, 1, 0.1);  // all zeros
  io_test::fill_signature(state, s.decomp);
  checkpointer.write(state, 0.2, 2, 0.1);

  auto restored = fields::FlowState::allocate(s.shape);
  EXPECT_EQ(checkpointer.load("latest", restored).step, 2);
  EXPECT_EQ(count_signature_mismatches(restored, s.decomp), 0);
  io_test::fill_signature(restored, s.decomp);
  checkpointer.load(first.string(), restored);
  const long long owned = 4LL * s.shape.cells[0] * s.shape.cells[1] * s.shape.cells[2];
  EXPECT_EQ(count_signature_mismatches(restored, s.decomp), owned);  // the zeros of step 1, every one
}

// Warm-start fields (solver state such as the stage pressure changes) are optional: read where the checkpoint holds
// them, listed in the result, and left alone where it does not.
TEST(Checkpoint, WarmStartFieldsAreReadWhereHeldAndLeftAloneOtherwise) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "warm_start");
  auto s = make_setup(MPI_COMM_WORLD);
  const auto [state, warm] = signed_fields(s, {"pressure_before_1"});
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "name: warm_start\n");
  checkpointer.write(state, 0.5, 7, 0.1, {}, warm);
  checkpointer.write(state, 0.6, 8, 0.1);

  auto restored = fields::FlowState::allocate(s.shape);
  const auto asked = make_scalars({"pressure_before_1"}, s.shape);
  const auto held =
      checkpointer.load((checkpointer.directory() / io::Checkpointer::file_name(7)).string(), restored, {}, asked);
  ASSERT_EQ(held.warm_start, std::vector<std::string>{"pressure_before_1"});
  EXPECT_EQ(count_scalar_mismatches(asked, s.shape, s.decomp), 0);

  const auto untouched = make_scalars({"pressure_before_1"}, s.shape);
  const auto without = checkpointer.load("latest", restored, {}, untouched);
  EXPECT_EQ(without.step, 8);
  EXPECT_TRUE(without.warm_start.empty());
  EXPECT_GT(count_scalar_mismatches(untouched, s.shape, s.decomp), 0);  // still the zeros it was made with
}

TEST(Checkpoint, ReadOnOtherRankCount) {
  int world_rank = 0, world_size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const int writers = (world_size + 1) / 2;  // 1 -> 1, 2 -> 1, 4 -> 2
  for (auto mode : io_test::modes()) {
    const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "ranks");
    MPI_Comm writer_comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < writers ? 0 : MPI_UNDEFINED, world_rank, &writer_comm);
    if (writer_comm != MPI_COMM_NULL) {
      parallel::Context context(writer_comm);
      auto s = make_setup(writer_comm);
      io_test::use_mode(s.deck, mode);
      const auto [state, scalars] = signed_fields(s, {"temperature", "dye"});
      io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck").write(state, 1.5, 7, 0.01, scalars);
      MPI_Comm_free(&writer_comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    parallel::Context context(MPI_COMM_WORLD);
    auto s = make_setup(MPI_COMM_WORLD);
    auto state = fields::FlowState::allocate(s.shape);
    const auto scalars = make_scalars({"temperature", "dye"}, s.shape);
    const auto meta =
        io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck").load("latest", state, scalars);
    EXPECT_EQ(meta.step, 7);
    EXPECT_EQ(count_signature_mismatches(state, s.decomp), 0);
    EXPECT_EQ(count_scalar_mismatches(scalars, s.shape, s.decomp), 0);
  }
}

TEST(Checkpoint, KeepsOnlyTheNewestAndResolvesLatest) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "keep");
  auto s = make_setup(MPI_COMM_WORLD, 2);
  s.deck.output.keep_checkpoints = 2;
  auto state = fields::FlowState::allocate(s.shape);
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
  io::run_on_rank0(MPI_COMM_WORLD, [&] {
    std::filesystem::create_directories(checkpointer.directory());
    std::ofstream(checkpointer.directory() / "notes.txt") << "not a checkpoint\n";
  });
  for (long long step : {10, 20, 30, 40}) checkpointer.write(state, 0.1 * step, step, 0.1);
  EXPECT_FALSE(std::filesystem::exists(checkpointer.directory() / "checkpoint_000010.h5"));
  EXPECT_FALSE(std::filesystem::exists(checkpointer.directory() / "checkpoint_000020.h5"));
  EXPECT_TRUE(std::filesystem::exists(checkpointer.directory() / "checkpoint_000030.h5"));
  EXPECT_TRUE(std::filesystem::exists(checkpointer.directory() / "notes.txt"));
  EXPECT_EQ(checkpointer.resolve("latest").filename(), "checkpoint_000040.h5");
  EXPECT_EQ(checkpointer.resolve("checkpoint_000030.h5").filename(), "checkpoint_000030.h5");
  EXPECT_THROW(checkpointer.resolve("checkpoint_000020.h5"), Error);
}

/// Runs `load` and returns the eddy::Error message ("" if it did not throw).
std::string load_error(const io::Checkpointer& checkpointer, const std::string& which, fields::FlowState& state,
                       const std::vector<fields::NamedField>& scalars = {}) {
  try {
    checkpointer.load(which, state, scalars);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

/// The checksum a checkpoint stores for quantity `quantity` of the cell signatures over the global `cells`, computed
/// serially from its definition: the sum (mod 2^64) over the cells, x fastest, of mix(bits(value) ^ mix(index)), with
/// mix SplitMix64's finaliser.
std::uint64_t documented_checksum(int quantity, const Int3& cells) {
  const auto mix = [](std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t sum = 0, index = 0;
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i, ++index) {
        const Real value = io_test::cell_signature(quantity, {i, j, k});
        std::uint64_t bits = 0;  // a float's 32 bits in the low half
        std::memcpy(&bits, &value, sizeof(value));
        sum += mix(bits ^ mix(index));
      }
  return sum;
}

// Checkpoints written by earlier versions stay readable only while the checksum keeps its definition, whatever the
// rank count and wherever it is computed.
TEST(Checkpoint, StoresTheDocumentedChecksum) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "checksum");
  auto s = make_setup(MPI_COMM_WORLD);
  const auto [state, scalars] = signed_fields(s, {"temperature"});
  const auto path =
      io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck").write(state, 1, 1, 0.1, scalars);
  const Int3 cells = s.deck.domain.cells;
  io::run_on_rank0(MPI_COMM_WORLD, [&] {
    const io::H5Reader file(path);
    const char* names[] = {"u", "v", "w", "p", "scalar_temperature"};
    for (int quantity = 0; quantity < 5; ++quantity) {
      EXPECT_EQ(file.read_uint64("checksum", names[quantity]), documented_checksum(quantity, cells)) << names[quantity];
    }
  });
}

TEST(Checkpoint, RefusesDamagedFiles) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "damaged");
  auto s = make_setup(MPI_COMM_WORLD);
  auto [state, scalars] = signed_fields(s, {"temperature"});
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
  const auto good = checkpointer.write(state, 1, 1, 0.1, scalars);
  const auto flipped = checkpointer.directory() / "flipped.h5";
  const auto flipped_scalar = checkpointer.directory() / "flipped_scalar.h5";
  const auto truncated = checkpointer.directory() / "truncated.h5";
  io::run_on_rank0(MPI_COMM_WORLD, [&] {
    std::ifstream in(good, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(truncated, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
    // Change one stored value of /p: find the bytes of the value at global cell (3, 2, 1) and alter its last bit.
    // Likewise one value of /scalar_temperature (quantity 4) in a second copy.
    for (const auto& [quantity, damaged] : {std::pair{3, flipped}, std::pair{4, flipped_scalar}}) {
      std::vector<char> copy = bytes;
      const Real target = io_test::cell_signature(quantity, {3, 2, 1});
      char pattern[sizeof(Real)];
      std::memcpy(pattern, &target, sizeof(Real));
      auto at = std::search(copy.begin(), copy.end(), pattern, pattern + sizeof(Real));
      if (at == copy.end()) throw Error("value not found in the checkpoint file");
      at[0] = static_cast<char>(at[0] ^ 1);
      std::ofstream(damaged, std::ios::binary).write(copy.data(), static_cast<std::streamsize>(copy.size()));
    }
  });
  EXPECT_NE(load_error(checkpointer, truncated.string(), state, scalars).find("truncated or corrupted"),
            std::string::npos);
  EXPECT_NE(load_error(checkpointer, flipped.string(), state, scalars).find("checksum of /p"), std::string::npos);
  EXPECT_NE(load_error(checkpointer, flipped_scalar.string(), state, scalars).find("checksum of /scalar_temperature"),
            std::string::npos);
  EXPECT_NE(load_error(checkpointer, "missing.h5", state, scalars).find("does not exist"), std::string::npos);
  EXPECT_EQ(load_error(checkpointer, good.string(), state, scalars), "");
}

// A write that fails (here: a folder where the file would go; on a cluster usually a full disk) names the file, the
// size of its data and the space left on its file system.
TEST(Checkpoint, FailedWriteNamesItsSizeAndTheSpaceLeft) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "unwritable");
  auto s = make_setup(MPI_COMM_WORLD);
  const auto signed_state = signed_fields(s, {});
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
  const auto blocked = checkpointer.directory() / (io::Checkpointer::file_name(3) + ".tmp");
  io::run_on_rank0(MPI_COMM_WORLD, [&] { std::filesystem::create_directories(blocked / "inside"); });
  std::string message;
  try {
    checkpointer.write(signed_state.state, 1, 3, 0.1);
  } catch (const Error& e) {
    message = e.what();
  }
  const double kilobytes = 4.0 * 9 * 7 * 5 * sizeof(Real) / 1e3;  // u, v, w, p on 9 x 7 x 5 cells
  char size[80];
  std::snprintf(size, sizeof(size), "(%.3g kB of data; its file system has ", kilobytes);
  EXPECT_NE(message.find(blocked.string()), std::string::npos) << message;
  EXPECT_NE(message.find(size), std::string::npos) << message;
  EXPECT_NE(message.find(" free)"), std::string::npos) << message;
}

// In each write mode: writes checkpoint 1, then checkpoint 2 under the file size limit `limit_for(checkpoint 1's
// file)`, and checks that checkpoint 2 failed on every rank with `expected` in its message and left no file, partial
// or renamed, while checkpoint 1 stays.
void check_write_without_room(const std::function<rlim_t(const std::filesystem::path&)>& limit_for,
                              const std::string& expected) {
  parallel::Context context(MPI_COMM_WORLD);
  for (auto mode : io_test::modes()) {
    const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "out_of_room");
    auto s = make_setup(MPI_COMM_WORLD);
    io_test::use_mode(s.deck, mode);
    const auto signed_state = signed_fields(s, {});
    io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
    const auto kept = checkpointer.write(signed_state.state, 1, 1, 0.1);
    const std::string message = io_test::error_under_file_size_limit(
        limit_for(kept), [&] { checkpointer.write(signed_state.state, 2, 2, 0.1); });
    const bool collective = mode == io::WriteMode::collective;
    EXPECT_NE(message.find(expected), std::string::npos) << collective << ": " << message;
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_FALSE(std::filesystem::exists(checkpointer.directory() / (io::Checkpointer::file_name(2) + ".tmp")));
    EXPECT_FALSE(std::filesystem::exists(checkpointer.directory() / io::Checkpointer::file_name(2))) << collective;
    EXPECT_TRUE(std::filesystem::exists(kept));
    MPI_Barrier(MPI_COMM_WORLD);  // before the next mode's folder replaces this one
  }
}

// A checkpoint whose values alone exceed what may be written is refused before its file is created, with its size and
// the limit in the message.
TEST(Checkpoint, WriteWithoutRoomIsRefusedBeforeAnyFile) {
  check_write_without_room([](const std::filesystem::path&) { return rlim_t{4096}; },
                           "kB of data exceed the 4.1 kB this process may write to one file (ulimit -f)");
}

// A checkpoint whose values fit but whose file does not fails inside HDF5, which may hold the last writes until the
// file is closed: the failed close is a failed write, with the data's size and the space left in the message, and
// the partial file is removed. HDF5 1.10 then crashes when the process ends, closing the file it could not close,
// whatever the caller does, so the test runs from HDF5 1.14 on.
TEST(Checkpoint, WriteOutOfRoomLeavesNoPartialFile) {
#if H5_VERS_MAJOR == 1 && H5_VERS_MINOR < 14
  GTEST_SKIP() << "HDF5 " << H5_VERS_MAJOR << "." << H5_VERS_MINOR << " crashes at exit after a failed file close";
#endif
  // A limit past the values but 1 KiB short of the whole file (checkpoint 2 has checkpoint 1's layout).
  check_write_without_room(
      [](const std::filesystem::path& kept) {
        const auto whole_file = std::filesystem::file_size(kept);
        EXPECT_GT(whole_file, 2048u);
        return static_cast<rlim_t>(whole_file - 1024);
      },
      "kB of data; its file system has ");
}

TEST(Checkpoint, RefusesOtherGridOrPhysics) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "mismatch");
  auto s = make_setup(MPI_COMM_WORLD);
  auto state = fields::FlowState::allocate(s.shape);
  io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck").write(state, 1, 1, 0.1);

  auto other_length = s.deck;
  other_length.domain.length[1] = 3.0;
  auto message =
      load_error(io::Checkpointer(other_length, s.decomp, s.shape, context, run_dir, "deck"), "latest", state);
  EXPECT_NE(message.find("is for a grid of 9 x 7 x 5 cells"), std::string::npos) << message;

  auto other_viscosity = s.deck;
  other_viscosity.physics.viscosity = 2e-3;
  message = load_error(io::Checkpointer(other_viscosity, s.decomp, s.shape, context, run_dir, "deck"), "latest", state);
  EXPECT_NE(message.find("other physics"), std::string::npos) << message;

  auto finer = make_setup(MPI_COMM_WORLD);
  finer.deck.domain.cells = {18, 14, 10};
  finer.decomp = grid::decompose(io_test::grid_of(finer.deck), MPI_COMM_WORLD);
  finer.shape = fields::local_shape(finer.decomp, 1);
  auto finer_state = fields::FlowState::allocate(finer.shape);
  message = load_error(io::Checkpointer(finer.deck, finer.decomp, finer.shape, context, run_dir, "deck"), "latest",
                       finer_state);
  EXPECT_NE(message.find("this deck has 18 x 14 x 10 cells"), std::string::npos) << message;
}

TEST(Checkpoint, StatesItsPrecisionAndRefusesTheOther) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "precision");
  auto s = make_setup(MPI_COMM_WORLD);
  auto state = fields::FlowState::allocate(s.shape);
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
  checkpointer.write(state, 1, 1, 0.1);
  const auto path = checkpointer.resolve("latest");
  io::run_on_rank0(MPI_COMM_WORLD, [&] {
    EXPECT_EQ(io::H5Reader(path).read_string("precision"), precision_name);
    EXPECT_EQ(io::H5Reader(path).holds_floats("p"), sizeof(Real) == sizeof(float));
    // The same file as the build of the other precision would label it.
    const std::string other = sizeof(Real) == sizeof(float) ? "double" : "single";
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Adelete(file, "precision");
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, other.size());
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file, "precision", type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attribute, type, other.data());
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(file);
  });
  const std::string message = load_error(checkpointer, "latest", state);
  EXPECT_NE(message.find("precision fields; this eddy is built in " + std::string(precision_name)), std::string::npos)
      << message;
  EXPECT_NE(message.find("EDDY_PRECISION="), std::string::npos) << message;
}

TEST(Checkpoint, RefusesOtherScalars) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "scalars");
  auto s = make_setup(MPI_COMM_WORLD, 2);
  auto state = fields::FlowState::allocate(s.shape);
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
  const auto with_scalars = checkpointer.write(state, 1, 1, 0.1, make_scalars({"temperature", "dye"}, s.shape));
  const std::string file = "checkpoint '" + with_scalars.string() + "'";

  auto message = load_error(checkpointer, with_scalars.string(), state, make_scalars({"temperature"}, s.shape));
  EXPECT_NE(message.find(file + " holds scalar 'dye', which this deck does not transport"), std::string::npos)
      << message;
  message =
      load_error(checkpointer, with_scalars.string(), state, make_scalars({"temperature", "dye", "salt"}, s.shape));
  EXPECT_NE(message.find(file + " holds no scalar 'salt'"), std::string::npos) << message;
  message = load_error(checkpointer, with_scalars.string(), state, make_scalars({"Temperature", "dye"}, s.shape));
  EXPECT_NE(message.find("holds no scalar 'Temperature' (its scalars: temperature, dye"), std::string::npos) << message;
  message = load_error(checkpointer, with_scalars.string(), state);
  EXPECT_NE(message.find("holds scalar 'temperature', which this deck does not transport"), std::string::npos)
      << message;
  EXPECT_EQ(load_error(checkpointer, with_scalars.string(), state, make_scalars({"dye", "temperature"}, s.shape)), "");
}

TEST(Checkpoint, RefusesAnotherScalarDiffusivity) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "diffusivity");
  auto s = make_setup(MPI_COMM_WORLD, 2);
  config::ScalarConfig temperature;
  temperature.diffusivity = 0.01;
  s.deck.scalars = {temperature};
  auto state = fields::FlowState::allocate(s.shape);
  const auto scalars = make_scalars({"temperature"}, s.shape);
  const auto path =
      io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck").write(state, 1, 1, 0.1, scalars);

  EXPECT_EQ(
      load_error(io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck"), path.string(), state, scalars),
      "");
  s.deck.scalars[0].diffusivity = 0.02;
  const auto message =
      load_error(io::Checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck"), path.string(), state, scalars);
  EXPECT_NE(message.find("transports scalar 'temperature' with diffusivity 0.01; this deck gives it 0.02"),
            std::string::npos)
      << message;
}

TEST(Checkpoint, WithoutScalarsServesOnlyDecksWithoutScalars) {
  // A checkpoint written without scalars has no `scalars` attribute, as every checkpoint from before they were stored.
  parallel::Context context(MPI_COMM_WORLD);
  const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "no_scalars");
  auto s = make_setup(MPI_COMM_WORLD, 2);
  auto state = fields::FlowState::allocate(s.shape);
  io_test::fill_signature(state, s.decomp);
  io::Checkpointer checkpointer(s.deck, s.decomp, s.shape, context, run_dir, "deck");
  const auto path = checkpointer.write(state, 1, 3, 0.1);
  bool has_list = true;
  io::run_on_rank0(MPI_COMM_WORLD, [&] { has_list = io::H5Reader(path).has_attribute("scalars"); });
  MPI_Bcast(&has_list, 1, MPI_CXX_BOOL, 0, MPI_COMM_WORLD);
  EXPECT_FALSE(has_list);

  auto restored = fields::FlowState::allocate(s.shape);
  EXPECT_EQ(load_error(checkpointer, path.string(), restored), "");
  EXPECT_EQ(count_signature_mismatches(restored, s.decomp), 0);
  const auto message = load_error(checkpointer, path.string(), restored, make_scalars({"temperature"}, s.shape));
  EXPECT_NE(message.find("checkpoint '" + path.string() + "' holds no scalar 'temperature' (its scalars: none"),
            std::string::npos)
      << message;
}

}  // namespace
