#!/usr/bin/env bash
# ci.sh BUILD: ctriton used from a project outside its tree, as CI runs it (make example).
#   1. install ctriton's build BUILD into a scratch prefix; its libctriton.so exports
#      ct_/tl_ names only
#   2. copy this example out of the tree; build it with CMake (find_package) and run its
#      tests: its kernels emitted, linted, run on the emulator against their C references,
#      AOT-compiled into a launcher that compiles with -Wall -Wextra -Werror
#   3. compare its C kernels with their Python originals at every stage (fidelity.py)
#   4. build it again with make and pkg-config, and run the same checks
#   5. configure it with add_subdirectory of ctriton's sources (the FetchContent path)
# Needs Triton for lowering ($CTRITON_PYTHON), no GPU.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
PY=${CTRITON_PYTHON:-$HOME/.cache/ctriton/venv/bin/python}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# nothing of ctriton's tree may leak in: the install must stand on its own
unset CTRITON_SOURCE_DIR CTRITON_LOWER_SCRIPT CTRITON_KERNELS
export CTRITON_PYTHON=$PY
GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
say() { printf '== %s\n' "$*"; }

say "install into $T/prefix"
cmake --install "$BUILD" --prefix "$T/prefix" >/dev/null
P=$T/prefix
bad=$(nm -D --defined-only "$P/lib/libctriton.so" | awk '{print $NF}' | grep -v -e '^ct_' -e '^tl_' || true)
[ -z "$bad" ] || { echo "the installed libctriton.so exports: $bad"; exit 1; }
"$P/bin/ctriton" --version

cp -r "$ROOT/examples/out-of-tree" "$T/proj"
rm -rf "$T/proj/build" "$T/proj/build-make"

say "CMake: find_package(ctriton)"
cmake -S "$T/proj" -B "$T/proj/build" $GEN -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$T/proj/build" -j 2
(cd "$T/proj/build" && ctest --output-on-failure)

say "fidelity: the C ports against their Python originals"
"$PY" "$P/share/ctriton/fidelity.py" --ctriton "$P/bin/ctriton" --kernels "$T/proj/build/libmykernels.so" \
    --golden "$T/proj/build/golden" --verdicts "$T/proj/build/VERDICTS.md"

say "make + pkg-config"
PKG_CONFIG_PATH="$P/lib/pkgconfig" make -C "$T/proj" check

say "add_subdirectory of ctriton's sources (as FetchContent does): configure"
cmake -S "$T/proj" -B "$T/proj/build-sub" $GEN -DCTRITON_SOURCE="$ROOT" >/dev/null

say "the project outside the tree builds and runs against the installed ctriton"
