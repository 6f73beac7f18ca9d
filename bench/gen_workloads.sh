#!/usr/bin/env bash
# Regenerates bench/workloads/*.ttir, the TTIR of bench/workloads_py.py's kernels as Triton 3.6's
# frontend makes it for the benchmark's specializations (bench/bench_workloads.c runs them on the
# emulator; bench/interp_workloads.py runs the Python kernels under TRITON_INTERPRET=1 with the
# same sizes).  Needs Triton 3.6 (PYTHON, default the project's venv), no GPU.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$HOME/.cache/ctriton/venv/bin/python}
W="$ROOT/bench/workloads"
mkdir -p "$W"
gen() {  # gen NAME KERNEL WARPS SIGNATURE CONSTEXPRS
    "$PY" "$ROOT/scripts/ttir_from_py.py" --py "$ROOT/bench/workloads_py.py" --kernel "$2" \
        --num-warps "$3" --signature "$4" --constexprs "$5" -o "$W/$1.ttir"
    echo "bench/workloads/$1.ttir"
}
gen cross_entropy ce_fwd_kernel 8 "logits_ptr=*fp32:16 stride=i64:16 target_ptr=*i64:16 loss_ptr=*fp32:16 inv_n=fp32" \
    "V=32768 BLOCK=4096"
gen attn_fwd attn_fwd_kernel 8 "Q=*fp16:16 K=*fp16:16 V=*fp16:16 Out=*fp16:16 sm_scale=fp32" \
    "N_CTX=1024 HEAD_DIM=64 BLOCK_M=128 BLOCK_N=64"
gen moe_fp8 moe_fp8_kernel 8 "a_ptr=*fp8e4nv:16 b_ptr=*fp8e4nv:16 c_ptr=*fp16:16 a_scale_ptr=*fp32:16 b_scale_ptr=*fp32:16 topk_weights_ptr=*fp32:16 sorted_token_ids_ptr=*i32:16 expert_ids_ptr=*i32:16 num_tokens_post_padded_ptr=*i32:16 num_valid_tokens=i32" \
    "N=1024 K=1024 EM=1024 top_k=2 group_n=128 group_k=128 BLOCK_M=64 BLOCK_N=128 BLOCK_K=128 GROUP_M=8"
gen decode_stage1 decode_stage1_kernel 4 "Q=*fp16:16 K_cache=*fp16:16 V_cache=*fp16:16 sm_scale=fp32 Mid_O=*fp32:16 Mid_lse=*fp32:16" \
    "H=32 KV_GROUP=4 SEQ=2048 D=128 NUM_SPLITS=8 BLOCK_N=64"
gen decode_stage2 decode_stage2_kernel 4 "Mid_O=*fp32:16 Mid_lse=*fp32:16 O=*fp16:16" \
    "H=32 D=128 NUM_SPLITS=8"
gen chunk_la chunk_la_kernel 4 "Q=*fp16:16 K=*fp16:16 V=*fp16:16 O=*fp16:16 scale=fp32" \
    "T=2048 DK=64 DV=64 BT=64"
gen matmul matmul_kernel 8 "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32:16 N=i32:16 stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1" \
    "K=1024 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8"
gen radix_hist radix_hist_kernel 4 "keys_ptr=*i32:16 hist_ptr=*i32:16 shift=i32" "BLOCK=1024 RADIX=16"
gen radix_scatter radix_scatter_kernel 4 "keys_in=*i32:16 keys_out=*i32:16 digit_offsets=*i32:16 status=*i32:16 shift=i32" \
    "BLOCK=1024 RADIX=16"
