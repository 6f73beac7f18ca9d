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
echo "ok"
