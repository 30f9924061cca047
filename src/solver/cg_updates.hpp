#pragma once
// The fused vector updates and dot products of (flexible, preconditioned) conjugate gradients. Step lengths and
// directions are computed on the device from the dot products the previous kernels left in device Buffers, so an
// iteration never waits on the host.
#include "solver/level_sums.hpp"

namespace eddy::solver {

/// q = L(p) and pq[0] = p . q, reduced over ranks.
void apply_and_dot(Field q, Field p, const PoissonLevel& level, Buffer pq, const parallel::Reducer& reducer);
/// alpha = current[0] / pq[0]; x += alpha p, r -= alpha q. With `fuse_norm`, next[0] = r . r (reduced).
void cg_step(Field x, Field r, Field p, Field q, Buffer current, Buffer pq, Buffer next, bool fuse_norm,
             const PoissonLevel& level, const parallel::Reducer& reducer);
/// next = {r . z, r . r, q . z} over all ranks.
void preconditioned_dots(Field r, Field z, Field q, Buffer next, const PoissonLevel& level,
                         const parallel::Reducer& reducer);
/// p = z + beta p: beta = next[0] / current[0], or with `flexible` the Polak-Ribiere form -alpha next[2] / current[0].
void cg_direction(Field p, Field z, Buffer current, Buffer next, Buffer pq, bool flexible, const PoissonLevel& level);

}  // namespace eddy::solver
