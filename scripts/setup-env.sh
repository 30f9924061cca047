#!/usr/bin/env bash
# Provision (once) a Debian 13 root that holds everything eddy needs: Kokkos (from sid), OpenMPI, parallel HDF5,
# yaml-cpp, CLI11, nlohmann-json, muparser, GoogleTest, Python with h5py/matplotlib, and ParaView. An existing complete
# root is reused.
#   scripts/setup-env.sh            create or verify the root, print its path
# Environment: EDDY_ENV_ROOT (default /var/cache/eddy/trixie-root).
set -euo pipefail

root=${EDDY_ENV_ROOT:-/var/cache/eddy/trixie-root}
packages=(ca-certificates build-essential g++ cmake ninja-build make git pkgconf
  openmpi-bin libopenmpi-dev libhdf5-openmpi-dev hdf5-tools libyaml-cpp-dev libgtest-dev googletest
  libcli11-dev nlohmann-json3-dev libmuparser-dev
  python3 python3-numpy python3-h5py python3-matplotlib python3-yaml paraview python3-paraview xvfb xauth)
kokkos_packages=(libkokkos-dev)
stamp_text="eddy-env v1: ${packages[*]} ${kokkos_packages[*]}"
stamp="$root/.eddy-env-complete"

log() { printf '[setup-env] %s\n' "$*" >&2; }

if [[ -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; then
  echo "$root"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  log "creating the Debian 13 root at $root needs root (debootstrap, chroot). Run as root, or build with your own"
  log "Kokkos: cmake -B build -DKokkos_ROOT=/path/to/kokkos (see README.md)."
  exit 1
fi

mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[[ -n "$mirror" ]] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[[ -n "$mirror" ]] || { log "no Debian mirror found in /etc/apt/sources.list(.d)"; exit 1; }

if ! command -v debootstrap >/dev/null; then
  log "installing debootstrap on the host"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null ||
    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; }
fi

if [[ ! -x "$root/usr/bin/apt-get" ]]; then
  log "debootstrap trixie into $root (1-3 minutes, depending on the mirror)"
  rm -rf "$root.partial"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase trixie "$root.partial" "$mirror" >"$(dirname "$root")/debootstrap.log" 2>&1 ||
    { log "debootstrap failed, see $(dirname "$root")/debootstrap.log"; exit 1; }
  rm -rf "$root"
  mv "$root.partial" "$root"
fi

cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror trixie main
deb $mirror sid main
SOURCES
rm -f "$root/etc/apt/sources.list.d/debian.sources"
cat >"$root/etc/apt/preferences.d/sid-low" <<'PIN'
Package: *
Pin: release n=sid
Pin-Priority: 100
PIN
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

in_root() {
  unshare --mount --propagation private -- bash -c '
    r=$1; shift
    mount -t proc proc "$r/proc"; mount --rbind /sys "$r/sys"; mount --rbind /dev "$r/dev"
    exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"
  ' _ "$root" "$@"
}

log "installing ${#packages[@]} packages into the root (3-10 minutes; apt's progress follows)"
apt_opts=(-o Acquire::Check-Valid-Until=false -y -q --no-install-recommends)
# One line per package downloaded and set up, so that a long install shows it is moving.
progress() { { grep --line-buffered -E '^(Get:|Setting up)' || true; } | awk '{ n++; printf "\r[setup-env] %d packages fetched or set up", n; fflush() } END { print "" }' >&2; }
in_root apt-get "${apt_opts[@]}" update >/dev/null
in_root apt-get "${apt_opts[@]}" install "${packages[@]}" | progress
in_root apt-get "${apt_opts[@]}" -t sid install "${kokkos_packages[@]}" | progress

# sid's Kokkos CMake export names two archives the packages do not ship; empty archives satisfy it.
for lib in libkokkosalgorithms.a libkokkossimd.a; do
  target=$(find "$root/usr/lib" -name 'KokkosTargets-none.cmake' -exec grep -o "[^\"]*/$lib" {} + 2>/dev/null | head -n 1 || true)
  [[ -n "$target" ]] || continue
  target=${target#*\$\{_IMPORT_PREFIX\}}
  for dir in "$root/usr/lib/x86_64-linux-gnu" "$root/usr/lib"; do
    [[ -e "$dir/$lib" ]] || in_root ar rcs "${dir#"$root"}/$lib"
  done
done

in_root sh -c 'cmake --version >/dev/null && mpicxx --version >/dev/null && h5pcc -showconfig >/dev/null &&
  python3 -c "import h5py, matplotlib, numpy" && command -v pvpython >/dev/null' ||
  { log "the root at $root is incomplete after installation"; exit 1; }
echo "$stamp_text" >"$stamp"
log "ready: $root"
echo "$root"
