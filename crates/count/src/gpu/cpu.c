/*
 * The GPU kernel (kernel.cu) compiled for this CPU: the shim below stands for what CUDA
 * provides, and nq_count_cpu runs a launch's grid, every block and thread of it in turn, as
 * the GPU would run them side by side. The tests run it (crates/count/src/gpu/cpu.rs).
 */

#include <stdint.h>

#define NQ_CPU 1
typedef unsigned long long nq_u64;
typedef unsigned int nq_u32;
#define NQ_POPC(x) ((nq_u64)__builtin_popcountll(x))
#define NQ_POPC32(x) ((nq_u32)__builtin_popcount(x))
#define NQ_CTZ(x) ((nq_u32)__builtin_ctzll(x))
#define NQ_NEXT(p) ((*(p))++)
#define NQ_DEVICE static

#include "kernel.cu"

/* A launch of `blocks` blocks of `threads` threads over `count` starts. */
void nq_count_cpu(nq_u32 blocks, nq_u32 threads, const struct nq_board *boards,
                  const struct nq_start *starts, nq_u32 count, nq_u64 *solutions,
                  nq_u64 *nodes)
{
    for (nq_u32 block = 0; block < blocks; block++) {
        for (nq_u32 thread = 0; thread < threads; thread++) {
            nq_thread(block * threads + thread, boards, starts, count, solutions, nodes);
        }
    }
}

/* A launch of nq_count32: `blocks` blocks of `threads` threads, each block's shared stacks
 * `stack` (threads x 4 x depth words), the starts taken from one counter. Run in turn, the
 * first thread takes every start; each is still counted by itself. */
void nq_count32_cpu(nq_u32 blocks, nq_u32 threads, nq_u32 *stack,
                    const struct nq_board *boards, const struct nq_start *starts,
                    nq_u32 count, nq_u64 *solutions, nq_u64 *nodes)
{
    nq_u32 next = 0;
    for (nq_u32 block = 0; block < blocks; block++) {
        for (nq_u32 thread = 0; thread < threads; thread++) {
            nq_thread32(thread, threads, stack, &next, boards, starts, count, solutions, nodes);
        }
    }
}
