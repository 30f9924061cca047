#include "io/collective.hpp"

#include "core/error.hpp"

#include <exception>
#include <vector>

namespace eddy::io {

namespace {

/// Broadcasts `text` from `root` to every rank.
std::string broadcast_from(MPI_Comm comm, const std::string& text, int root) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  long long length = static_cast<long long>(text.size());
  MPI_Bcast(&length, 1, MPI_LONG_LONG, root, comm);
  std::string out = rank == root ? text : std::string(static_cast<std::size_t>(length), '\0');
  if (length > 0) MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, root, comm);
  return out;
}

/// Throws on every rank when any rank reports a failure (non-empty message).
void agree(MPI_Comm comm, bool failed, const std::string& message) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int first_failed = failed ? rank : size;
  MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, comm);
  if (first_failed == size) return;
  throw Error(broadcast_from(comm, message, first_failed), Error::Ranks::every);
}

}  // namespace

void run_collectively(MPI_Comm comm, const std::function<void()>& body) {
  bool failed = false;
  std::string message;
  try {
    body();
  } catch (const std::exception& error) {
    failed = true;
    message = error.what();
  }
  agree(comm, failed, message);
}

void run_on_rank0(MPI_Comm comm, const std::function<void()>& body) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  run_collectively(comm, [&] {
    if (rank == 0) body();
  });
}

std::string broadcast_string(MPI_Comm comm, const std::string& text) { return broadcast_from(comm, text, 0); }

}  // namespace eddy::io
