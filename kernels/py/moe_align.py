# The token alignment of a fused MoE, in one program: topk_ids holds the expert of each
# (token, k) pair, flattened (numel ids); an id outside [0, num_experts) belongs to no
# expert of this rank (dropped, or another rank's) and is left out.  Each expert's count
# is padded up to a multiple of block_size and the experts laid out in order over the
# padded total.  Written:
#   sorted_token_ids[0:total]: for each expert, the indices of its ids in increasing order,
#     then `numel` (no token) up to its padded end;
#   expert_ids[b]: the expert of slots b * block_size ... (b + 1) * block_size - 1;
#   num_tokens_post_pad[0]: the padded total.
# Nothing past the total is written.  Three passes over the ids, all in registers: the
# counts (tl.histogram); the padded ends (tl.cumsum); each id's slot, its expert's cursor
# (tl.gather) plus its rank among the earlier ids of its block with the same expert (a
# one-hot [BLOCK, NUM_EXPERTS] cumulative sum for few experts, else a [BLOCK, BLOCK]
# comparison), so that the order is stable; then each expert's padding and
# its blocks' owner, as [NUM_EXPERTS, BLOCK] tiles.  NUM_EXPERTS is a power of two >=
# num_experts.
# The C port is kernels/moe_align.c.
import triton
import triton.language as tl


@triton.jit
def moe_align_block_size_kernel(topk_ids_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_pad_ptr,
                                numel, num_experts, block_size,
                                NUM_EXPERTS: tl.constexpr, BLOCK: tl.constexpr):
    experts = tl.arange(0, NUM_EXPERTS)
    # the ids of each expert
    counts = tl.zeros([NUM_EXPERTS], dtype=tl.int32)
    for off in range(0, numel, BLOCK):
        offs = off + tl.arange(0, BLOCK)
        ids = tl.load(topk_ids_ptr + offs, mask=offs < numel, other=-1)
        valid = (ids >= 0) & (ids < num_experts)
        counts += tl.histogram(tl.where(valid, ids, 0).to(tl.int32), NUM_EXPERTS, mask=valid)
    # each expert's slots: [start, start + count) its ids, then padding up to `end`
    padded = (counts + block_size - 1) // block_size * block_size
    ends = tl.cumsum(padded, axis=0)
    starts = ends - padded
    total = tl.sum(padded, axis=0)
    tl.store(num_tokens_post_pad_ptr, total)
    # the ids, in order: the slot of each is its expert's cursor plus its rank among the
    # earlier ids of its block with the same expert
    cursor = starts
    lanes = tl.arange(0, BLOCK)
    for off in range(0, numel, BLOCK):
        offs = off + lanes
        ids = tl.load(topk_ids_ptr + offs, mask=offs < numel, other=-1)
        valid = (ids >= 0) & (ids < num_experts)
        expert = tl.where(valid, ids, 0).to(tl.int32)
        if NUM_EXPERTS < BLOCK:
            # few experts: a one-hot [BLOCK, NUM_EXPERTS] cumulative sum
            hit = (expert[:, None] == experts[None, :]) & valid[:, None]
            rank = tl.sum(tl.where(hit, tl.cumsum(hit.to(tl.int32), axis=0) - 1, 0), axis=1)
        else:
            # many: a [BLOCK, BLOCK] comparison with the earlier ids
            same = (expert[:, None] == expert[None, :]) & valid[None, :] & (lanes[None, :] < lanes[:, None])
            rank = tl.sum(same.to(tl.int32), axis=1)
        slot = tl.gather(cursor, expert, 0) + rank
        tl.store(sorted_token_ids_ptr + slot, offs, mask=valid)
        cursor += tl.histogram(expert, NUM_EXPERTS, mask=valid)
    # the padding of each expert, [start + count, end), BLOCK slots at a time
    filled = starts + counts
    for j in range(0, block_size, BLOCK):
        slots = filled[:, None] + (j + lanes)[None, :]
        tl.store(sorted_token_ids_ptr + slots, numel, mask=slots < ends[:, None])
    # the expert that owns each block, BLOCK blocks of each expert at a time
    blocks = padded // block_size
    for j in range(0, tl.max(blocks, axis=0), BLOCK):
        b = j + lanes
        owner = experts[:, None] + tl.zeros([NUM_EXPERTS, BLOCK], dtype=tl.int32)
        tl.store(expert_ids_ptr + (starts // block_size)[:, None] + b[None, :], owner, mask=b[None, :] < blocks[:, None])
