#pragma once
// Rows of a field padded to whole 128-byte lines. Unpadded, a row of 512 owned cells and two ghosts is 4112 bytes,
// so every other row starts 16 bytes into a 32-byte sector and a warp's 256-byte access to it touches nine sectors,
// two of them partly. The same kernels on line-aligned rows ran nearer their streaming floors, and the padded step ran
// faster than the unpadded one (measured in tests/perf/RESULTS.md).

namespace eddy {

/// Values per padded row: `values` rounded up to a multiple of 16 doubles, for rows of 256 values or more. Shorter
/// rows are left alone: on them the padding adds a large share of points (130 -> 144 at 128^3, 66 -> 80 on its first
/// coarse level), and padding every row from 64 values slowed the step (measured in tests/perf/RESULTS.md).
constexpr int padded_row_values(int values) { return values >= 256 ? (values + 15) / 16 * 16 : values; }

}  // namespace eddy
