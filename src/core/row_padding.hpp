#pragma once
// Rows of a field padded to whole 128-byte lines. Unpadded, a row of 512 owned cells and two ghosts is 4112 bytes,
// so every other row starts 16 bytes into a 32-byte sector and a warp's 256-byte access to it touches nine sectors,
// two of them partly. On an H200 the same kernels on rows of 512 values (510 cells), each line-aligned, ran nearer
// their floors than on rows of 514: the gradient correction at 0.89 of its stream against 0.82, the velocity stage 1
// at 0.71 against 0.60, the Laplacian apply at 0.90 against 0.87 (tests/perf/RESULTS.md).

namespace eddy {

/// Values per padded row: `values` rounded up to a multiple of 16 doubles, for rows of 256 values or more. Shorter
/// rows are left alone: padding rows of 130 to 144 values (128^3) slowed that step from 1.91 to 2.18 ms (one run
/// each), and coarse multigrid levels would grow by up to a quarter.
constexpr int padded_row_values(int values) { return values >= 256 ? (values + 15) / 16 * 16 : values; }

}  // namespace eddy
