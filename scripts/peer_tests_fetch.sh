#!/usr/bin/env bash
# Prints the path of a copy of Triton 3.6.0's python/test/unit (the peer suite of
# bench/peer_tests.py), getting one if needed.  Triton's tests are not in its wheel
# and are never committed here; they are read from, in order:
#   $TRITON_TESTS                    a checkout's python/test/unit, used as it is
#   $CTRITON_PEER_DIR                the cache (default ~/.cache/ctriton/peer-tests-3.6.0),
#                                    filled by one of the next two once
#   $TRITON_GIT_DIR                  a git directory holding Triton's history: `git archive`
#                                    of $TRITON_REV (default v3.6.0) into the cache
#   github.com/triton-lang/triton    a shallow sparse clone of tag v3.6.0 into the cache
# (A commit whose python/triton/{language,runtime,compiler} equal the 3.6.0 wheel's does
# too: facebookexperimental/triton's 4b184cccb was used where the tag was not reachable.)
# Exit 2, with the reason on stderr, when none is available.
set -euo pipefail

if [ -n "${TRITON_TESTS:-}" ]; then
  [ -d "$TRITON_TESTS/language" ] || { echo "peer_tests_fetch: TRITON_TESTS=$TRITON_TESTS has no language/" >&2; exit 2; }
  echo "$TRITON_TESTS"
  exit 0
fi
dir=${CTRITON_PEER_DIR:-$HOME/.cache/ctriton/peer-tests-3.6.0}
unit=$dir/python/test/unit
if [ -f "$unit/language/test_core.py" ]; then
  echo "$unit"
  exit 0
fi
rev=${TRITON_REV:-v3.6.0}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/peer-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
paths="python/test python/tutorials/06-fused-attention.py"
if [ -n "${TRITON_GIT_DIR:-}" ]; then
  # shellcheck disable=SC2086
  git --git-dir="$TRITON_GIT_DIR" archive "$rev" $paths | tar -x -C "$tmp" ||
    { echo "peer_tests_fetch: no $rev in $TRITON_GIT_DIR" >&2; exit 2; }
  git --git-dir="$TRITON_GIT_DIR" rev-parse "$rev" > "$tmp/COMMIT"
elif timeout 120 git clone -q --depth 1 --branch "$rev" --filter=blob:none --sparse \
       https://github.com/triton-lang/triton "$tmp/src" 2>"$tmp/err" &&
     git -C "$tmp/src" sparse-checkout set --no-cone $paths 2>>"$tmp/err"; then
  mkdir -p "$tmp/python"
  cp -r "$tmp/src/python/test" "$tmp/python/test"
  mkdir -p "$tmp/python/tutorials"
  cp "$tmp/src/python/tutorials/06-fused-attention.py" "$tmp/python/tutorials/"
  git -C "$tmp/src" rev-parse HEAD > "$tmp/COMMIT"
  rm -rf "$tmp/src"
else
  echo "peer_tests_fetch: no copy of Triton $rev's tests: set TRITON_TESTS (a checkout's python/test/unit)" \
       "or TRITON_GIT_DIR (a git directory of Triton); github.com: $(tail -1 "$tmp/err" 2>/dev/null)" >&2
  exit 2
fi
rm -f "$tmp/err"
mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "$unit"
