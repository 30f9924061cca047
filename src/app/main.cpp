// eddy: incompressible Navier-Stokes on staggered grids with Kokkos and MPI.
#include "parallel/context.hpp"

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(eddy::parallel::kokkos_settings_for_rank(MPI_COMM_WORLD));
    std::printf("eddy %s\n", EDDY_VERSION);
  }
  MPI_Finalize();
  return 0;
}
