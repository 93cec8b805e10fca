"""Column sums of a 1024 x 1024 float32 matrix: each block owns 32 columns and walks down the rows
64 at a time, staging a 64 x 32 tile in shared memory (T.copy), reading it into a register fragment
and reducing it across rows with T.reduce_sum(dim=0) (the reduction runs over the threads that hold
one column, not along a row), accumulating into a per-column fragment. 128 threads. Held-out kernel,
lowered for sm_80."""
import tilelang.language as T

M, N = 1024, 1024
BLOCK_M, BLOCK_N = 64, 32
THREADS = 128


@T.prim_func
def col_reduce_sum(
    A: T.Tensor((M, N), "float32"),
    S: T.Tensor((N,), "float32"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), threads=THREADS) as bx:
        a_s = T.alloc_shared((BLOCK_M, BLOCK_N), "float32")
        a_f = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        part = T.alloc_fragment((BLOCK_N,), "float32")
        acc = T.alloc_fragment((BLOCK_N,), "float32")
        T.clear(acc)
        for ko in T.serial(T.ceildiv(M, BLOCK_M)):
            T.copy(A[ko * BLOCK_M, bx * BLOCK_N], a_s)
            T.copy(a_s, a_f)
            T.reduce_sum(a_f, part, dim=0)
            for j in T.Parallel(BLOCK_N):
                acc[j] += part[j]
        T.copy(acc, S[bx * BLOCK_N])
