#pragma once
// Rows of a field padded to whole 128-byte lines. Unpadded, a row of 512 owned cells and two ghosts is 4112 bytes,
// so every other row starts 16 bytes into a 32-byte sector and a warp's 256-byte access to it touches nine sectors,
// two of them partly. On an H200 the same kernels on rows of 512 values (510 cells), each line-aligned, ran nearer
// their floors than on rows of 514: the gradient correction at 0.89 of its stream against 0.82, the velocity stage 1
// at 0.71 against 0.60, the Laplacian apply at 0.90 against 0.87. Padded to 528, the 512^3 step took 37.2-37.6 ms
// against 38.4-38.5 in the same job (tests/perf/RESULTS.md).

namespace eddy {

/// Values per padded row: `values` rounded up to a multiple of 16 doubles, for rows of 256 values or more. Shorter
/// rows are left alone: padding every row from 64 values (130 -> 144 at 128^3, 66 -> 80 on its first coarse level)
/// slowed the 128^3 step from 1.91 to 2.18 ms (one run each).
constexpr int padded_row_values(int values) { return values >= 256 ? (values + 15) / 16 * 16 : values; }

}  // namespace eddy
