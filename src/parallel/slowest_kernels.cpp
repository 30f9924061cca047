#include "parallel/slowest_kernels.hpp"

#include <map>
#include <string>

namespace eddy::parallel {

std::vector<double> slowest_rank_seconds(const std::vector<KernelTime>& times, Context& context) {
  // Rank 0's labels, each ended by a NUL, to every rank.
  std::string labels;
  if (context.rank() == 0) {
    for (const KernelTime& t : times) labels += t.label + '\0';
  }
  long long bytes = static_cast<long long>(labels.size());
  check_mpi(MPI_Bcast(&bytes, 1, MPI_LONG_LONG, 0, context.comm()), "MPI_Bcast(kernel labels)");
  labels.resize(static_cast<std::size_t>(bytes));
  check_mpi(MPI_Bcast(labels.data(), static_cast<int>(bytes), MPI_CHAR, 0, context.comm()), "MPI_Bcast(kernel labels)");
  std::map<std::string, double> mine;
  for (const KernelTime& t : times) mine[t.label] = t.seconds;
  std::vector<double> slowest;
  for (std::size_t start = 0; start < labels.size();) {
    const std::size_t end = labels.find('\0', start);
    const auto found = mine.find(labels.substr(start, end - start));
    slowest.push_back(found == mine.end() ? 0.0 : found->second);
    start = end + 1;
  }
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, slowest.data(), static_cast<int>(slowest.size()), MPI_DOUBLE, MPI_MAX,
                          context.comm()),
            "MPI_Allreduce(kernel times)");
  return slowest;
}

}  // namespace eddy::parallel
