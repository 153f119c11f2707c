/*
 * The leaves' matching kernel (leaves.cu) compiled for this CPU: the shim stands for CUDA's
 * popcount and bit scan, and nq_match_leaves_cpu runs every thread of a launch in turn. The
 * tests run it (crates/count/src/quadrants/matcher/leaves.rs).
 */

#define NQ_CPU 1
typedef unsigned long long nq_u64;
typedef unsigned int nq_u32;
#define NQ_POPC(x) ((nq_u64)__builtin_popcountll(x))
#define NQ_CTZ(x) ((nq_u32)__builtin_ctzll(x))
#define NQ_DEVICE static

#include "leaves.cu"

void nq_match_leaves_cpu(const nq_u64 *sliced, const struct nq_leaf *leaves,
                         const nq_u64 *queries, const nq_u32 *leaf_of, nq_u32 count,
                         nq_u64 *found)
{
    for (nq_u32 i = 0; i < count; i++) {
        nq_leaf_thread(i, sliced, leaves, queries, leaf_of, count, found);
    }
}
