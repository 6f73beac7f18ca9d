#!/bin/sh
# test_cli.sh CTRITON CONFORMANCE_PLUGIN SOURCE_DIR: the command's conventions.
#   - every subcommand answers --help (exit 0), and accepts every flag its help lists
#   - malformed values, missing values, unknown flags and missing arguments: exit 2, naming the flag
#   - --opt=value as well as --opt value
#   - --json output of run, lint, lower, aot, list, diff parses as JSON
#   - run --all's summary line; run --ttir's @FILE:inout (in place) and @FILE:out
#   - lower/aot --ttir: a kernel written in Python (its TTIR) to a C launcher that compiles
#   - kernel plugins: loading, refusals
# Lowering (lower, aot) uses Triton through $CTRITON_PYTHON, in a private cache.
set -u
CT=$1
PLUGIN=$2
SRC=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export CTRITON_CACHE_DIR=$T/cache
unset CTRITON_KERNELS
fails=0
PY=${CTRITON_PYTHON:-python3}

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect RC PATTERN CMD...: exit status RC and PATTERN (grep -E) in stdout+stderr
expect() {
    want=$1 pat=$2
    shift 2
    "$@" >"$T/out" 2>&1
    rc=$?
    if [ "$rc" != "$want" ]; then
        fail "$* -> exit $rc, wanted $want"
        sed 's/^/    /' "$T/out" | head -20
    elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$T/out"; then
        fail "$* -> no /$pat/ in:"
        sed 's/^/    /' "$T/out" | head -20
    fi
}

json_ok() { # json_ok FILE WHAT
    "$PY" -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>"$T/jerr" ||
        { fail "$2: not JSON: $(cat "$T/jerr")"; head -5 "$1"; }
}

# ---- --help everywhere, and every flag it lists is accepted ---------------------------
expect 0 "^usage: ctriton" "$CT" --help
expect 0 "^ctriton [0-9]+\.[0-9]+\.[0-9]+" "$CT" --version
for c in list emit lint diff rawgate run lower aot bench; do
    expect 0 "^usage: ctriton $c " "$CT" $c --help
    expect 0 "^usage: ctriton $c " "$CT" help $c
    for flag in $("$CT" $c --help | grep -Eo '^  (-[a-z], )?--[a-z-]+' | grep -Eo -- '--[a-z-]+'); do
        "$CT" $c "$flag" >"$T/out" 2>&1
        if grep -q "unknown option" "$T/out"; then fail "$c --help lists $flag, which is refused"; fi
    done
done

# ---- refusals name the flag, exit 2 ----------------------------------------------------------
expect 2 "--arch: .abc. is not an integer" "$CT" lower add_kernel --arch abc
expect 2 "--arch: 0 is out of range" "$CT" lower add_kernel --arch 0
expect 2 "--seed: .abc. is not an unsigned integer" "$CT" run add_kernel --emu --seed abc
expect 2 "missing KERNEL" "$CT" emit
expect 2 "--threads: .abc. is not an integer" "$CT" run add_kernel --emu --threads abc
expect 2 "--threads: -5 is out of range" "$CT" run add_kernel --emu --threads -5
expect 2 "--num-warps 0: num_warps must be a power of two" "$CT" run --ttir x --num-warps 0
expect 2 "--num-warps 3: num_warps must be a power of two" "$CT" aot add_kernel --num-warps 3
expect 2 "--config needs a value" "$CT" emit add_kernel --config
expect 2 "unknown option .--bogus." "$CT" emit add_kernel --bogus
expect 2 "--locs takes no value" "$CT" emit add_kernel --locs=1
expect 2 "unexpected argument .b." "$CT" emit a b
expect 2 "--warmup: .x. is not a number" "$CT" bench add_kernel --warmup x
expect 2 "--arch: .9x. is not a list" "$CT" aot add_kernel --arch 9x
expect 2 "--grid: .0. is not" "$CT" run --ttir "$SRC/tests/cli/data/inplace_scale.ttir" --grid 0 --arg 'fp32[4]' --arg 4
expect 2 "--arg 0: .fp33\[4\]. is not a dtype|--arg 0: .fp33. is not a dtype" \
    "$CT" run --ttir "$SRC/tests/cli/data/inplace_scale.ttir" --arg 'fp33[4]' --arg 4
expect 2 "--ttgir: cannot open" "$CT" run add_kernel --emu --ttgir "$T/missing.ttgir"
echo "this is not TTGIR" >"$T/garbage.ttgir"
expect 2 "--ttgir .*not a TTGIR file" "$CT" run add_kernel --emu --ttgir "$T/garbage.ttgir"
# run --ttir (issue 14): every option and argument checked, every refusal names its place
K=$SRC/tests/cli/data/inplace_scale.ttir
expect 2 "--ttgir: cannot open" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --ttgir "$T/missing.ttgir"
expect 2 "--ttgir .*not a TTGIR file" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --ttgir "$T/garbage.ttgir"
expect 2 "--threads: .abc. is not an integer" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --threads abc
expect 2 "--threads: -5 is out of range" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --threads -5
expect 2 "--num-warps 0: num_warps must be a power of two" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --num-warps 0
expect 2 "--max-steps: .12x. is not an unsigned integer" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --max-steps 12x
expect 2 "--max-steps: .-1. is not an unsigned integer" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4 --max-steps -1
expect 1 "argument 0 \(x_ptr\) points to fp32, but buffer .arg0. holds fp64" "$CT" run --ttir "$K" --arg 'fp64[4]' --arg 4
expect 1 "argument 1 \(n\) must be an integer" "$CT" run --ttir "$K" --arg 'fp32[4]' --arg 4.5
expect 1 "cannot open .*missing.ttir" "$CT" run --ttir "$T/missing.ttir" --arg 'fp32[4]' --arg 4
expect 1 "two_public.ttir:6:3: error: emulator: the module has more than one public function \(@a, @b" \
    "$CT" run --ttir "$SRC/tests/cli/data/two_public.ttir" --arg 'fp32[4]'
# TTIR without loc(): faults and lints name the op's line in the text (they named no place)
W=$SRC/tests/cli/data/wild_offset.ttir
for off in 274877906944 137438953472 -274877906944; do # 2^40, 2^39 and -2^40 bytes
    expect 1 "wild_offset.ttir:7: tt.store in wild .*moved 2\^39 bytes or more from buffer .arg1." \
        "$CT" run --ttir "$W" --arg 'fp32[16]' --arg 'fp32[16]:out' --arg 'fp32[16]' --arg $off
done
expect 3 "unused_load.ttir:7:10: warning: \[unused-load\]" "$CT" lint --ttir "$SRC/tests/cli/data/unused_load.ttir"
expect 0 "^b grid \(1,1,1\): ran 1 programs" "$CT" run --ttir "$SRC/tests/cli/data/two_public.ttir" --arg 'fp32[4]' --kernel b
expect 1 "cyclic_loc.ttir:3:22: error: location alias #loc2 refers to itself" \
    "$CT" run --ttir "$SRC/tests/cli/data/cyclic_loc.ttir" --arg 'fp32[4]'
# an endless input file is read up to the limit, then refused (it was read until malloc failed)
expect 2 "/dev/zero is larger than the limit of 268435456 bytes" "$CT" diff /dev/zero "$K"
expect 1 "/dev/zero is larger than the limit of 268435456 bytes" "$CT" run --ttir /dev/zero --arg 'fp32[4]' --arg 4
expect 1 "/dev/zero is not a regular file" "$CT" run --ttir "$K" --arg 'fp32[4]@/dev/zero' --arg 4
expect 1 "/dev/zero is larger than the limit of 268435456 bytes" "$CT" lint --ttir /dev/zero
# port's Python reader: the same limit (it read /dev/zero forever), binary and too deeply nested
# files refused with the file's name (they were tracebacks)
expect 1 "^/dev/zero is larger than the limit of 268435456 bytes$" "$CT" port /dev/zero
printf 'x = 1\n\320\n' >"$T/binary.py"
expect 1 "binary.py:2: not UTF-8 text \(byte 0xd0\)" "$CT" port "$T/binary.py"
"$PY" -c 'print("@triton.jit\ndef k(x):\n    y = " + "+".join(["x"] * 50000))' >"$T/deep.py"
expect 1 "deep.py: nested too deeply to port" "$CT" port "$T/deep.py"
# a module the verifier refuses is never run (here a tt.trans whose order is no permutation)
expect 1 "bad_trans.ttir:5:10: error: tt.trans: order is not a permutation" \
    "$CT" run --ttir "$SRC/tests/cli/data/bad_trans.ttir" --arg 'fp32[32]' --arg 'fp32[32]:out'
expect 1 "no kernel named .nope." "$CT" emit nope
expect 1 "has no config .B7." "$CT" emit add_kernel --config B7

# ---- --opt=value ------------------------------------------------------------------------
expect 0 "tt.func public @softmax_kernel" "$CT" emit softmax_kernel --config=B128
expect 0 "PASS" "$CT" run softmax_kernel --config=B128 --emu --threads=1

# ---- run: the summary line, JSON -----------------------------------------------------------
expect 0 "^[0-9]+ passed, 0 failed$" "$CT" run --all --emu --threads 2
"$CT" run --all --emu --threads 2 --json >"$T/run.json" && json_ok "$T/run.json" "run --all --json"
"$CT" run softmax_kernel --emu --json >"$T/run1.json" && json_ok "$T/run1.json" "run --json"
grep -q '"passed": 2, "failed": 0' "$T/run1.json" || fail "run --json: no counts"
"$CT" lint softmax_kernel --json >"$T/lint.json"; json_ok "$T/lint.json" "lint --json"
"$CT" lint --no-justify --ttir "$SRC/tests/golden/softmax_kernel/B1024/py.source" --json >"$T/lint2.json"
json_ok "$T/lint2.json" "lint --ttir --json"
grep -q '"severity": "note"' "$T/lint2.json" || fail "lint --ttir --json: no notes"
"$CT" list --json >"$T/list.json" && json_ok "$T/list.json" "list --json"
"$CT" diff "$SRC/tests/golden/add_kernel/B1024/py.source" "$SRC/tests/golden/add_kernel/B1024/py.source" --json >"$T/diff.json"
json_ok "$T/diff.json" "diff --json"
# --exact: an unused constant is a difference the normalizer hides
G="$SRC/tests/golden/add_kernel/B1024/py.source"
sed 's/^\(    tt.return\)/    %unused = arith.constant 48 : i32\n\1/' "$G" >"$T/dead.source"
expect 0 "equal after normalization" "$CT" diff "$G" "$T/dead.source"
expect 1 "different \\(exact\\): \\+1/-0" "$CT" diff --exact "$G" "$T/dead.source"
expect 0 "equal \\(exact\\)" "$CT" diff --exact "$G" "$G"

# ---- run --ttir: @FILE:inout in place, @FILE:out --------------------------------------------
"$PY" -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("100f", *range(100)))' "$T/x.bin"
expect 0 "ran 2 programs" "$CT" run --ttir "$SRC/tests/cli/data/inplace_scale.ttir" --grid 2 \
    --arg "fp32[100]@$T/x.bin:inout" --arg 100
"$PY" -c '
import struct, sys
v = struct.unpack("100f", open(sys.argv[1], "rb").read())
sys.exit(0 if list(v) == [2.0 * i for i in range(100)] else 1)' "$T/x.bin" || fail "@FILE:inout: x.bin not doubled in place"
expect 1 "holds 400 bytes, fp32\[99\] is 396" "$CT" run --ttir "$SRC/tests/cli/data/inplace_scale.ttir" \
    --grid 2 --arg "fp32[99]@$T/x.bin:inout" --arg 99
"$PY" -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("64000f", *([0.5] * 64000)))' "$T/sx.bin"
expect 0 "ran 64 programs" "$CT" run --ttir "$SRC/tests/golden/softmax_kernel/B1024/py.source" --grid 64 \
    --arg "fp32[64000]@$T/sx.bin" --arg "fp32[64000]@$T/sy.bin:out" --arg 1000
"$PY" -c '
import struct, sys
v = struct.unpack("64000f", open(sys.argv[1], "rb").read())
sys.exit(0 if all(abs(x - 1e-3) < 1e-9 for x in v) else 1)' "$T/sy.bin" || fail "@FILE:out: softmax of a constant row is not 1/1000"
"$CT" run --ttir "$SRC/tests/cli/data/inplace_scale.ttir" --grid 2 --arg 'fp32[100]' --arg 100 --json >"$T/rt.json"
json_ok "$T/rt.json" "run --ttir --json"

# ---- plugins ---------------------------------------------------------------------------------
expect 2 "kernel plugin $T/none.so" "$CT" --kernels "$T/none.so" list
LIB=$(dirname "$CT")/libctriton.so
[ -f "$LIB" ] && expect 2 "not a ctriton plugin" "$CT" --kernels "$LIB" list
expect 0 "ops_host_desc" "$CT" --kernels "$PLUGIN" list --all
expect 0 "ops_host_desc" "$CT" list --all --kernels "$PLUGIN"
CTRITON_KERNELS=$PLUGIN expect 0 "ops_host_desc" "$CT" list --all
# loading the same plugin twice is harmless
expect 0 "cf_while" "$CT" --kernels "$PLUGIN" --kernels "$PLUGIN" list --all

# ---- lower / aot: a kernel, and a kernel written in Python (its TTIR) -------------------------
"$CT" lower add_kernel --json >"$T/lower.json" && json_ok "$T/lower.json" "lower --json" ||
    fail "lower add_kernel --json: $(cat "$T/lower.json")"
PYTTIR=$SRC/tests/golden/softmax_kernel/B1024/py.source
expect 0 "sm_90" "$CT" lower --ttir "$PYTTIR"
"$CT" aot --ttir "$PYTTIR" --name py_softmax -o "$T/gen" --json >"$T/aot.json" || fail "aot --ttir"
json_ok "$T/aot.json" "aot --ttir --json"
grep -q 'uint64_t x_ptr; /\* device pointer to fp32, 16-byte aligned \*/' "$T/gen/py_softmax.h" ||
    fail "aot --ttir: the launcher's arguments do not come from the TTIR's signature"
grep -q 'int32_t n_cols;' "$T/gen/py_softmax.h" || fail "aot --ttir: no n_cols field"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -c "$T/gen/py_softmax.c" -I"$T/gen" -o "$T/gen/py_softmax.o" ||
    fail "the launcher aot --ttir wrote does not compile cleanly"
expect 1 "no function @nope" "$CT" aot --ttir "$PYTTIR" --kernel nope -o "$T/gen"

# ---- bench's host side against the stand-in driver (tests/unit/fake_cuda.c: no GPU in CI; it
# runs no kernels, so outputs keep their poison and --check must say FAILED) ----------------------
if ${CC:-cc} -std=gnu11 -O1 -shared -fPIC -o "$T/libcuda.so.1" "$SRC/tests/unit/fake_cuda.c" -lpthread 2>"$T/ccerr"; then
    export CTRITON_LIBCUDA=$T/libcuda.so.1
    expect 0 "GB/s" "$CT" bench add_kernel --config B1024 --rep 1 --warmup 1
    ${CC:-cc} -std=gnu11 -O1 -fPIC -shared -I"$SRC/include" "$SRC"/examples/out-of-tree/kernels/*.c \
        -L"$(dirname "$CT")" -lctriton -o "$T/libmykernels.so" 2>"$T/ccerr" || fail "the example plugin: $(cat "$T/ccerr")"
    expect 0 "memory +[0-9.]+ GB/s" "$CT" --kernels "$T/libmykernels.so" bench bias_gelu_kernel --rep 1 --warmup 1
    expect 1 "check +FAILED: y_ptr: .*UNWRITTEN" "$CT" --kernels "$T/libmykernels.so" bench bias_gelu_kernel --check \
        --rep 1 --warmup 1
    "$CT" --kernels "$T/libmykernels.so" bench row_sum_kernel --json --rep 1 --warmup 1 >"$T/bench.json" &&
        json_ok "$T/bench.json" "bench --json" || fail "bench row_sum_kernel --json: $(cat "$T/bench.json")"
    "$CT" --kernels "$T/libmykernels.so" emit bias_gelu_kernel --config B1024 --locs >"$T/gen_bias_gelu.ttir"
    expect 0 "signature +x_ptr=\*fp32:16 b_ptr=\*fp32:16 y_ptr=\*fp32:16 n_cols=i32" "$CT" bench --ttir "$T/gen_bias_gelu.ttir" \
        --grid 64 --arg 'fp32[64000]' --arg 'fp32[1000]' --arg "fp32[64000]@$T/y.bin:out" --arg 1000 --rep 1 --warmup 1
    [ "$(wc -c <"$T/y.bin" 2>/dev/null)" = 256000 ] || fail "bench --ttir: the @FILE:out output was not written"
    expect 2 "--arg 3: .n_cols. is an integer parameter" "$CT" bench --ttir "$T/gen_bias_gelu.ttir" \
        --grid 64 --arg 'fp32[64000]' --arg 'fp32[1000]' --arg 'fp32[64000]:out' --arg 1.5
    unset CTRITON_LIBCUDA
else
    fail "cannot build the stand-in driver: $(cat "$T/ccerr")"
fi

if [ $fails -gt 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all command checks passed"
