/*
 * The quadrant method's leaves matched on a GPU: a prototype (docs/guide/gpu.md).
 *
 * A sieve's leaf holds stored patterns; the queries the sieve's splits let into it are
 * matched against every one of them: the pairs with no bit in common are counted. Here a
 * leaf's patterns are bit-sliced in blocks of 256, as the CPU matcher slices them: for each of
 * the 64 bit positions, four 64-bit words with one bit per pattern saying "this pattern lacks
 * the bit", then the block's valid-pattern words. A query's count in a block is the popcount
 * of the AND of the slices of its set bits. One thread a query: it runs over its leaf's
 * blocks (the queries of a leaf are next to each other, so a warp's threads read the same
 * blocks).
 *
 * One source for two compilers, as the backtracking kernel (kernel.cu): NVRTC compiles it
 * for the GPU at run time (the `gpu` feature), the C compiler for this CPU (leaves_cpu.c,
 * through build.rs), which the tests run against the CPU matcher.
 */

#ifndef NQ_CPU
typedef unsigned long long nq_u64;
typedef unsigned int nq_u32;
#define NQ_POPC(x) ((nq_u64)__popcll(x))
#define NQ_CTZ(x) ((nq_u32)(__ffsll((long long)(x)) - 1))
#define NQ_DEVICE __device__ static
#endif

/* Words a block takes: 64 slices and the valid lanes, four words each. */
#define NQ_BLOCK_WORDS (65 * 4)

/* A leaf: its blocks, from `first` on. 8 bytes. */
struct nq_leaf {
    nq_u32 first;
    nq_u32 blocks;
};

/* Query `i`'s count: the patterns of its leaf with no bit of it. */
NQ_DEVICE void nq_leaf_thread(nq_u32 i, const nq_u64 *sliced, const struct nq_leaf *leaves,
                              const nq_u64 *queries, const nq_u32 *leaf_of, nq_u32 count,
                              nq_u64 *found)
{
    if (i >= count) {
        return;
    }
    nq_u64 q = queries[i];
    struct nq_leaf leaf = leaves[leaf_of[i]];
    nq_u64 total = 0;
    for (nq_u32 b = 0; b < leaf.blocks; b++) {
        const nq_u64 *s = sliced + (nq_u64)(leaf.first + b) * NQ_BLOCK_WORDS;
        nq_u64 a0 = s[256], a1 = s[257], a2 = s[258], a3 = s[259];
        nq_u64 m = q;
        while (m) {
            nq_u32 j = NQ_CTZ(m);
            m &= m - 1;
            a0 &= s[4 * j];
            a1 &= s[4 * j + 1];
            a2 &= s[4 * j + 2];
            a3 &= s[4 * j + 3];
        }
        total += NQ_POPC(a0) + NQ_POPC(a1) + NQ_POPC(a2) + NQ_POPC(a3);
    }
    found[i] = total;
}

#ifndef NQ_CPU
extern "C" __global__ void nq_match_leaves(const nq_u64 *sliced, const struct nq_leaf *leaves,
                                           const nq_u64 *queries, const nq_u32 *leaf_of,
                                           nq_u32 count, nq_u64 *found)
{
    nq_leaf_thread(blockIdx.x * blockDim.x + threadIdx.x, sliced, leaves, queries, leaf_of,
                   count, found);
}
#endif
