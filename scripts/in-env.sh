#!/usr/bin/env bash
# Runs a command inside eddy's Debian 13 environment (scripts/setup-env.sh), with this repository mounted at the
# same path, so build folders and paths are the same inside and outside.
#   scripts/in-env.sh cmake --preset openmp
# With your own Kokkos (Kokkos_ROOT set) or EDDY_NATIVE=1 the command runs directly on this machine.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [[ "${EDDY_NATIVE:-0}" == 1 || -n "${Kokkos_ROOT:-}" ]]; then
  exec "$@"
fi

root=$("$here/scripts/setup-env.sh")
cwd=$(pwd)
exec unshare --mount --propagation private -- bash -c '
  set -e
  r=$1 repo=$2 cwd=$3; shift 3
  mount -t proc proc "$r/proc"; mount --rbind /sys "$r/sys"; mount --rbind /dev "$r/dev"
  # A fresh /tmp (no stale MPI session or X lock from an earlier command), mounted before the repository so that a
  # checkout under /tmp stays visible.
  mkdir -p "$r/tmp"; mount -t tmpfs -o mode=1777 tmpfs "$r/tmp"
  mkdir -p "$r$repo"; mount --bind "$repo" "$r$repo"
  exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM="${TERM:-dumb}" \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,sm OMPI_MCA_rmaps_base_oversubscribe=1 \
    PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe OMP_PROC_BIND=false OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" \
    bash -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
' _ "$root" "$here" "$cwd" "$@"
