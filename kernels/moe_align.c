/* The token alignment of a fused MoE in one program: the ids of each expert in order over
 * counts padded to block_size, the expert of each block, the padded total.
 * Python original: kernels/py/moe_align.py */
#include "kernels.h"

TL_KERNEL(moe_align_block_size_kernel,
          (topk_ids_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_pad_ptr, numel, num_experts, block_size),
          (int, NUM_EXPERTS), (int, BLOCK))
{
    tl_tensor experts = tl_arange(0, NUM_EXPERTS);
    // the ids of each expert
    tl_tensor counts = tl_zeros(tl_shape(NUM_EXPERTS), tl_int32);
    TL_FOR(off, tl_range(0, numel, BLOCK), counts) {
        tl_tensor offs = tl_add(off, tl_arange(0, BLOCK));
        tl_tensor ids = tl_load(tl_add(topk_ids_ptr, offs), .mask = tl_lt(offs, numel), .other = tl_c(-1));
        tl_tensor valid = tl_and(tl_ge(ids, 0), tl_lt(ids, num_experts));
        counts = tl_add(counts, tl_histogram(tl_to(tl_where(valid, ids, 0), tl_int32), NUM_EXPERTS, valid));
    }
    // each expert's slots: [start, start + count) its ids, then padding up to `end`
    tl_tensor padded = tl_mul(tl_floordiv(tl_sub(tl_add(counts, block_size), 1), block_size), block_size);
    tl_tensor ends = tl_cumsum(padded, .axis = 0);
    tl_tensor starts = tl_sub(ends, padded);
    tl_tensor total = tl_sum(padded, .axis = 0);
    tl_store(num_tokens_post_pad_ptr, total);
    // the ids, in order: the slot of each is its expert's cursor plus its rank among the
    // earlier ids of its block with the same expert
    tl_tensor cursor = starts;
    tl_tensor lanes = tl_arange(0, BLOCK);
    TL_FOR(off, tl_range(0, numel, BLOCK), cursor) {
        tl_tensor offs = tl_add(off, lanes);
        tl_tensor ids = tl_load(tl_add(topk_ids_ptr, offs), .mask = tl_lt(offs, numel), .other = tl_c(-1));
        tl_tensor valid = tl_and(tl_ge(ids, 0), tl_lt(ids, num_experts));
        tl_tensor expert = tl_to(tl_where(valid, ids, 0), tl_int32);
        tl_tensor rank;
        if (NUM_EXPERTS < BLOCK) {
            // few experts: a one-hot [BLOCK, NUM_EXPERTS] cumulative sum
            tl_tensor hit = tl_and(tl_eq(tl_idx(expert, ":, None"), tl_idx(experts, "None, :")), tl_idx(valid, ":, None"));
            rank = tl_sum(tl_where(hit, tl_sub(tl_cumsum(tl_to(hit, tl_int32), .axis = 0), 1), 0), .axis = 1);
        } else {
            // many: a [BLOCK, BLOCK] comparison with the earlier ids
            tl_tensor same = tl_and(tl_and(tl_eq(tl_idx(expert, ":, None"), tl_idx(expert, "None, :")), tl_idx(valid, "None, :")),
                                    tl_lt(tl_idx(lanes, "None, :"), tl_idx(lanes, ":, None")));
            rank = tl_sum(tl_to(same, tl_int32), .axis = 1);
        }
        tl_tensor slot = tl_add(tl_gather(cursor, expert, 0), rank);
        tl_store(tl_add(sorted_token_ids_ptr, slot), offs, .mask = valid);
        cursor = tl_add(cursor, tl_histogram(expert, NUM_EXPERTS, valid));
    }
    // the padding of each expert, [start + count, end), BLOCK slots at a time
    tl_tensor filled = tl_add(starts, counts);
    TL_FOR(j, tl_range(0, block_size, BLOCK)) {
        tl_tensor slots = tl_add(tl_idx(filled, ":, None"), tl_idx(tl_add(j, lanes), "None, :"));
        tl_store(tl_add(sorted_token_ids_ptr, slots), numel, .mask = tl_lt(slots, tl_idx(ends, ":, None")));
    }
    // the expert that owns each block, BLOCK blocks of each expert at a time
    tl_tensor blocks = tl_floordiv(padded, block_size);
    TL_FOR(j, tl_range(0, tl_max(blocks, .axis = 0), BLOCK)) {
        tl_tensor b = tl_add(j, lanes);
        tl_tensor owner = tl_add(tl_idx(experts, ":, None"), tl_zeros(tl_shape(NUM_EXPERTS, BLOCK), tl_int32));
        tl_store(tl_add(tl_add(expert_ids_ptr, tl_idx(tl_floordiv(starts, block_size), ":, None")), tl_idx(b, "None, :")), owner,
                 .mask = tl_lt(tl_idx(b, "None, :"), tl_idx(blocks, ":, None")));
    }
}

TL_CONFIGS(moe_align_block_size_kernel,
    {.name = "e8_top2_bs16_tail",
     .signature = "topk_ids_ptr=*i32:16 sorted_token_ids_ptr=*i32:16 expert_ids_ptr=*i32:16 num_tokens_post_pad_ptr=*i32:16 "
                  "numel=i32 num_experts=i32 block_size=i32:16",
     .constexprs = "NUM_EXPERTS=8 BLOCK=256", .problem = "TOKENS=333 TOPK=2 E=8 BS=16", .num_warps = 4},
    {.name = "e60_top4_bs64_i64",
     .signature = "topk_ids_ptr=*i64:16 sorted_token_ids_ptr=*i32:16 expert_ids_ptr=*i32:16 num_tokens_post_pad_ptr=*i32:16 "
                  "numel=i32:16 num_experts=i32 block_size=i32:16",
     .constexprs = "NUM_EXPERTS=64 BLOCK=64", .problem = "TOKENS=100 TOPK=4 E=60 BS=64 DROP=1", .num_warps = 4},
    {.name = "e256_top8_bs128",
     .signature = "topk_ids_ptr=*i32:16 sorted_token_ids_ptr=*i32:16 expert_ids_ptr=*i32:16 num_tokens_post_pad_ptr=*i32:16 "
                  "numel=i32:16 num_experts=i32:16 block_size=i32:16",
     .constexprs = "NUM_EXPERTS=256 BLOCK=64", .problem = "TOKENS=64 TOPK=8 E=256 BS=128", .num_warps = 8});
