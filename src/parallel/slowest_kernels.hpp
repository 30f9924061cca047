#pragma once
// Kernel times (core/kernel_timer.hpp) of the slowest rank beside rank 0's. On several ranks a kernel whose work or
// wait differs between ranks shows there: the step goes at the pace of the rank that takes longest, which rank 0's
// own times may hide.
#include "core/kernel_timer.hpp"
#include "parallel/context.hpp"

#include <vector>

namespace eddy::parallel {

/// For each of rank 0's kernel labels, in rank 0's order, the largest time over the ranks; a rank without the label
/// counts 0 (collective; every rank passes its own times and gets the same result).
std::vector<double> slowest_rank_seconds(const std::vector<KernelTime>& times, Context& context);

}  // namespace eddy::parallel
