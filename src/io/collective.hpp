#pragma once
// Agreement across ranks on host-side work that can fail (file system, HDF5): either every rank goes on, or every
// rank throws the same eddy::Error, so no rank is left waiting in a collective call.
#include <mpi.h>

#include <functional>
#include <string>

namespace eddy::io {

/// Runs `body` on every rank; if it throws on any rank, every rank throws the message of the lowest failing rank.
void run_collectively(MPI_Comm comm, const std::function<void()>& body);

/// Runs `body` on rank 0 only; if it throws, every rank throws its message. Ends with every rank past the call.
void run_on_rank0(MPI_Comm comm, const std::function<void()>& body);

/// Rank 0's value of `text` on every rank.
std::string broadcast_string(MPI_Comm comm, const std::string& text);

}  // namespace eddy::io
