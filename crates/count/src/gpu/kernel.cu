/*
 * The GPU kernel of nqueens: counts the completions of many partial boards, one per thread.
 *
 * One source for two compilers: NVRTC compiles it for the GPU found at run time (the `gpu`
 * feature, crates/count/src/gpu/enabled/device.rs), and the C compiler compiles it for this CPU
 * (crates/count/src/gpu/cpu.c, through the crate's build.rs), so that the tests run the kernel's logic on every
 * commit, on machines without a GPU.
 *
 * A board (`nq_board`) is a task's search as the CPU kernels see it (board/spec.rs): `k` free
 * rows, the squares of free row i that the fixed queens attack or the task bars (`forbid[i]`),
 * how far the diagonals move from free row i to the next (`gap[i]`). A start (`nq_start`) is
 * one subtree of a board: the queens of its first `level` free rows placed (by the host), the
 * columns and diagonals they take as seen from free row `level`, and that row's free squares
 * (`avail`, already counted as nodes by the host). The thread searches the subtree as
 * crates/count/src/backtracking/kernel/fast.rs does: depth first, the last free row counted with
 * one popcount, and every square a queen may take on a row counted as a node, so that its
 * solutions and nodes are exactly the CPU kernels'.
 */

#ifndef NQ_CPU
typedef unsigned long long nq_u64;
typedef unsigned int nq_u32;
#define NQ_POPC(x) ((nq_u64)__popcll(x))
#define NQ_POPC32(x) ((nq_u32)__popc(x))
#define NQ_CTZ(x) ((nq_u32)(__ffsll((long long)(x)) - 1))
#define NQ_NEXT(p) atomicAdd((p), 1u)
#define NQ_DEVICE __device__ static
#endif

#define NQ_MAX_ROWS 64

typedef unsigned __int128 nq_u128;

/* A task's board: 592 bytes, 8-aligned (LaunchBoard in crates/count/src/gpu/launch.rs mirrors it). */
struct nq_board {
    nq_u64 full;
    nq_u64 forbid[NQ_MAX_ROWS];
    unsigned char gap[NQ_MAX_ROWS];
    nq_u32 k;
    nq_u32 last;
};

/* A subtree of a board: 40 bytes, 8-aligned. */
struct nq_start {
    nq_u64 cols;
    nq_u64 d1;
    nq_u64 d2;
    nq_u64 avail;
    nq_u32 board;
    nq_u32 level;
};

/* The squares of row `x` (counted from the start's row) that the diagonals `d1`, `d2` hold:
 * in these, a queen on (x, c) is bit c - x + 63 of `d1` and bit c + x of `d2`, the same bit
 * on every row, so that a queen taken back is one bit cleared. */
NQ_DEVICE nq_u64 nq_diagonals(nq_u128 d1, nq_u128 d2, nq_u32 x)
{
    return (nq_u64)(d1 >> (63 - x)) | (nq_u64)(d2 >> x);
}

/* Counts the subtree `s` of board `b` (its level below the board's last free row): its
 * solutions and the nodes below its first row.
 *
 * The search keeps its columns and diagonals in registers, and on its stack only the column
 * of the queen of each level (one byte a level): the diagonals are kept by the queen's
 * square, not shifted row by row, so taking a queen back clears its three bits, and a level
 * returned to recomputes its free squares and drops those already tried (every column up to
 * its queen's). The stack frame is 64 bytes where four words a level took 2,048. */
NQ_DEVICE void nq_search(const struct nq_board *b, const struct nq_start *s,
                         nq_u64 *solutions_out, nq_u64 *nodes_out)
{
    unsigned char queen[NQ_MAX_ROWS];
    nq_u32 top = s->level;
    nq_u32 last = b->last;
    nq_u64 full = b->full;
    nq_u32 i = top;
    nq_u32 x = 0;
    nq_u64 cols = s->cols;
    nq_u128 d1 = (nq_u128)s->d1 << 63;
    nq_u128 d2 = (nq_u128)s->d2;
    nq_u64 avail = s->avail;
    nq_u64 solutions = 0;
    nq_u64 nodes = 0;
    for (;;) {
        if (avail == 0) {
            if (i == top) {
                break;
            }
            i -= 1;
            x -= b->gap[i];
            nq_u32 c = queen[i];
            nq_u64 bit = (nq_u64)1 << c;
            cols ^= bit;
            d1 ^= (nq_u128)1 << (c + 63 - x);
            d2 ^= (nq_u128)1 << (c + x);
            nq_u64 free = full & ~(cols | nq_diagonals(d1, d2, x) | b->forbid[i]);
            avail = free & ~(bit | (bit - 1));
            continue;
        }
        nq_u64 bit = avail & (0 - avail);
        avail ^= bit;
        nq_u32 c = NQ_CTZ(bit);
        nq_u32 below = x + b->gap[i];
        nq_u64 nc = cols | bit;
        nq_u128 n1 = d1 | (nq_u128)1 << (c + 63 - x);
        nq_u128 n2 = d2 | (nq_u128)1 << (c + x);
        nq_u64 free = full & ~(nc | nq_diagonals(n1, n2, below) | b->forbid[i + 1]);
        nq_u64 pop = NQ_POPC(free);
        nodes += pop;
        if (i + 1 == last) {
            solutions += pop;
        } else if (free != 0) {
            queen[i] = (unsigned char)c;
            i += 1;
            x = below;
            cols = nc;
            d1 = n1;
            d2 = n2;
            avail = free;
        }
    }
    *solutions_out = solutions;
    *nodes_out = nodes;
}

/* Thread `t` of a launch over `count` starts: its subtree's solutions and nodes. */
NQ_DEVICE void nq_thread(nq_u32 t, const struct nq_board *boards, const struct nq_start *starts,
                         nq_u32 count, nq_u64 *solutions, nq_u64 *nodes)
{
    if (t >= count) {
        return;
    }
    nq_search(&boards[starts[t].board], &starts[t], &solutions[t], &nodes[t]);
}

/*
 * The second search, for boards of N <= 32 (`nq_count32`): the same subtree counted the
 * same way, with 32-bit masks (a board's masks have no bit past N - 1 that matters: the
 * diagonals' bits shifted past the board are masked off by `full` in the first search and
 * fall off here), its stack in the block's shared memory rather than the thread's local
 * memory (level j's four words at st[(4 j + w) * stride]: a warp's lanes side by side), and
 * threads that take the next start from a global counter when theirs is done, so that a
 * warp's lanes do not idle behind its largest subtree. Which of the two is faster is for the
 * device to measure (scripts/measure/gpu-device.sh).
 */
NQ_DEVICE void nq_search32(const struct nq_board *b, const struct nq_start *s, nq_u32 *st,
                           nq_u32 stride, nq_u64 *solutions_out, nq_u64 *nodes_out)
{
    nq_u32 top = s->level;
    nq_u32 last = b->last;
    nq_u32 full = (nq_u32)b->full;
    nq_u32 i = top;
    nq_u64 solutions = 0;
    nq_u64 nodes = 0;
#define NQ_AT(j, w) st[(4 * ((j) - top) + (w)) * stride]
    NQ_AT(i, 0) = (nq_u32)s->cols;
    NQ_AT(i, 1) = (nq_u32)s->d1;
    NQ_AT(i, 2) = (nq_u32)s->d2;
    NQ_AT(i, 3) = (nq_u32)s->avail;
    for (;;) {
        nq_u32 a = NQ_AT(i, 3);
        if (a == 0) {
            if (i == top) {
                break;
            }
            i -= 1;
            continue;
        }
        nq_u32 bit = a & (0u - a);
        NQ_AT(i, 3) = a ^ bit;
        nq_u32 g = b->gap[i];
        nq_u32 nc = NQ_AT(i, 0) | bit;
        nq_u32 n1 = g < 32 ? (NQ_AT(i, 1) | bit) << g : 0;
        nq_u32 n2 = g < 32 ? (NQ_AT(i, 2) | bit) >> g : 0;
        nq_u32 free = full & ~(nc | n1 | n2 | (nq_u32)b->forbid[i + 1]);
        nq_u32 pop = NQ_POPC32(free);
        nodes += pop;
        if (i + 1 == last) {
            solutions += pop;
        } else if (free != 0) {
            i += 1;
            NQ_AT(i, 0) = nc;
            NQ_AT(i, 1) = n1;
            NQ_AT(i, 2) = n2;
            NQ_AT(i, 3) = free;
        }
    }
#undef NQ_AT
    *solutions_out = solutions;
    *nodes_out = nodes;
}

/* Thread `lane` of a block of `threads` (its stack from st + lane, `threads` apart): the
 * starts it takes from `next`, each counted by nq_search32. */
NQ_DEVICE void nq_thread32(nq_u32 lane, nq_u32 threads, nq_u32 *st, nq_u32 *next,
                           const struct nq_board *boards, const struct nq_start *starts,
                           nq_u32 count, nq_u64 *solutions, nq_u64 *nodes)
{
    for (;;) {
        nq_u32 t = NQ_NEXT(next);
        if (t >= count) {
            return;
        }
        nq_search32(&boards[starts[t].board], &starts[t], st + lane, threads, &solutions[t],
                    &nodes[t]);
    }
}

#ifndef NQ_CPU
extern "C" __global__ void nq_count32(const struct nq_board *boards,
                                      const struct nq_start *starts, nq_u32 count,
                                      nq_u32 *next, nq_u64 *solutions, nq_u64 *nodes)
{
    extern __shared__ nq_u32 nq_stacks[];
    nq_thread32(threadIdx.x, blockDim.x, nq_stacks, next, boards, starts, count, solutions,
                nodes);
}

extern "C" __global__ void nq_count(const struct nq_board *boards, const struct nq_start *starts,
                                    nq_u32 count, nq_u64 *solutions, nq_u64 *nodes)
{
    nq_thread(blockIdx.x * blockDim.x + threadIdx.x, boards, starts, count, solutions, nodes);
}
#endif
