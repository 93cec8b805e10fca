"""Row sums of a 1024 x 1024 float32 matrix: each block stages 8 rows in shared memory (T.copy), loads
them into a register fragment spread over 256 threads with T.Parallel (a scale of 0.5 on the way),
reduces each row with T.reduce_sum across the threads that hold it, and writes the 8 sums.
Lowered for sm_80."""
import tilelang.language as T

M, N = 1024, 1024
BLOCK_M = 8
THREADS = 256


@T.prim_func
def row_reduce_sum(
    A: T.Tensor((M, N), "float32"),
    S: T.Tensor((M,), "float32"),
):
    with T.Kernel(T.ceildiv(M, BLOCK_M), threads=THREADS) as bx:
        a_s = T.alloc_shared((BLOCK_M, N), "float32")
        a_f = T.alloc_fragment((BLOCK_M, N), "float32")
        sums = T.alloc_fragment((BLOCK_M,), "float32")
        T.copy(A[bx * BLOCK_M, 0], a_s)
        for i, j in T.Parallel(BLOCK_M, N):
            a_f[i, j] = a_s[i, j] * 0.5
        T.reduce_sum(a_f, sums, dim=1)
        T.copy(sums, S[bx * BLOCK_M])
