#!/bin/sh
# test_sweep.sh CTRITON PLANTED_PLUGIN: `ctriton run --sweep` catches a planted
# off-by-one mask at the sizes that expose it, and only there; its arguments and
# its verdict lines.
ct=$1 plugin=$2
fail() { echo "FAIL: $*"; exit 1; }
out=$("$ct" --kernels "$plugin" run planted_add_kernel --emu --sweep --threads 2)
rc=$?
echo "$out"
[ $rc -eq 1 ] || fail "the sweep of the planted kernel exits $rc, not 1"
# the config's own size (a multiple of the block) does not expose it
echo "$out" | grep -q "B256 N=256 .* PASS " || fail "N=256 (the block) should pass"
# 1 (n_elements specialized to the constant 1), BLOCK-1, BLOCK+1, an odd size do
for n in "N=1 \[n_elements=1\]" "N=255 \[n_elements=i32\]" "N=257 \[n_elements=i32\]" "N=641 \[n_elements=i32\]"; do
    echo "$out" | grep -Eq "B256 $n .*(CRASH|FAIL)" || fail "$n should fail"
done
# the int32 limit: the memory it needs, past --max-mem
echo "$out" | grep -q "N=2147483648 .*SKIP: the largest size whose offsets fit in int32: its buffers need 32.0 GiB (--max-mem 2)" ||
    fail "no SKIP line for the int32 limit"
echo "$out" | grep -q "1 passed, 4 failed, 2 skipped" || fail "the summary line"
# --quick leaves the int32 limit out; --inputs hard runs too
out=$("$ct" --kernels "$plugin" run planted_add_kernel --emu --sweep --quick --inputs hard --threads 2)
[ $? -eq 1 ] || fail "--quick --inputs hard: not exit 1"
echo "$out" | grep -q "2147483648" && fail "--quick ran the int32 limit"
echo "$out" | grep -q "1 passed, 4 failed" || fail "--quick summary: $out"
# bad usage: exit 2 with the reason
"$ct" run add_kernel --emu --inputs odd >/dev/null 2>&1; [ $? -eq 2 ] || fail "--inputs odd not refused"
"$ct" run add_kernel --emu --quick >/dev/null 2>&1; [ $? -eq 2 ] || fail "--quick without --sweep not refused"
"$ct" run add_kernel --emu --sweep --max-mem -1 >/dev/null 2>&1; [ $? -eq 2 ] || fail "--max-mem -1 not refused"
# run --ttir: the planted kernel's TTIR (without the divisibility of n_elements, as Python
# lowers it for a size that is no multiple of 16), sizes by expressions of N
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$ct" --kernels "$plugin" emit planted_add_kernel |
    sed 's/%n_elements: i32 {tt.divisibility = 16 : i32}/%n_elements: i32/' >"$T/planted.ttir" ||
    fail "emit planted_add_kernel"
set -- --grid 'cdiv(N, 256)' --arg 'fp32[N]' --arg 'fp32[N]' --arg 'fp32[N]:out' --arg N --threads 2
out=$("$ct" run --ttir "$T/planted.ttir" --sweep --size N:256 "$@")
rc=$?
echo "$out"
[ $rc -eq 1 ] || fail "run --ttir --sweep of the planted kernel exits $rc, not 1"
echo "$out" | grep -q "N=256 .* PASS  arg2: 0 of 256 unwritten" || fail "--ttir N=256 should pass"
for n in 1 255 257 641; do
    echo "$out" | grep -q "N=$n .*CRASH: .*out-of-bounds load" || fail "--ttir N=$n should crash"
done
echo "$out" | grep -q "N=2147483648 SKIP: the largest size whose offsets fit in int32: its buffers need 24.0 GiB" ||
    fail "--ttir: no int32-limit line"
echo "$out" | grep -q "^1 passed, 4 failed, 2 skipped$" || fail "--ttir summary"
# a list of sizes; the TTIR's own specialization (n_elements % 16 == 0) skips the others
"$ct" --kernels "$plugin" emit planted_add_kernel >"$T/planted16.ttir"
out=$("$ct" run --ttir "$T/planted16.ttir" --sweep --size N=256,300 "$@")
[ $? -eq 0 ] || fail "--ttir list: not exit 0: $out"
echo "$out" | grep -q "N=300 .*SKIP: .*= 300, which this TTIR's specialization excludes (tt.divisibility = 16)" ||
    fail "--ttir: no divisibility SKIP: $out"
# one size: the plain run, with expressions
out=$("$ct" run --ttir "$T/planted.ttir" --size N=512 "$@")
echo "$out" | grep -q "grid (2,1,1): ran 2 programs" || fail "--size N=512: $out"
"$ct" run --ttir "$T/planted.ttir" --size N:256 "$@" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--size N:256 without --sweep"
"$ct" run --ttir "$T/planted.ttir" --size N=5 --arg 'fp32[K]' >/dev/null 2>&1; [ $? -eq 2 ] || fail "an unknown size"
"$ct" run --ttir "$T/planted.ttir" --size 1N=5 >/dev/null 2>&1; [ $? -eq 2 ] || fail "a bad --size name"
# bench --sweep: bad sweeps are refused before the GPU is needed
for bad in "--sweep M" "--sweep N=0:8" "--sweep N=8:1" "--svg x.svg" "--sweep N=1:8 --large" "--sweep M=1:8"; do
    # shellcheck disable=SC2086
    "$ct" bench add_kernel $bad >/dev/null 2>&1; [ $? -eq 2 ] || fail "bench add_kernel $bad not refused"
done
echo "ok"
