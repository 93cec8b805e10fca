"""Row-wise softmax of a 4096 x 64 float32 matrix: each block stages 32 rows of 64 in shared memory
(T.copy in), reads them into a register fragment spread over 128 threads, takes each row's maximum
with T.reduce_max and, after exp2, its sum with T.reduce_sum (rows only 64 wide, so each row is held
by 16 threads of one warp), divides, and writes the result back through a second shared tile
(T.copy out; TileLang places it on the first, which is dead by then). Held-out kernel, lowered for
sm_80."""
import tilelang.language as T

M, N = 4096, 64
BLOCK_M = 32
THREADS = 128
LOG2E = 1.44269504


@T.prim_func
def softmax_rows(
    X: T.Tensor((M, N), "float32"),
    Y: T.Tensor((M, N), "float32"),
):
    with T.Kernel(T.ceildiv(M, BLOCK_M), threads=THREADS) as bx:
        x_s = T.alloc_shared((BLOCK_M, N), "float32")
        y_s = T.alloc_shared((BLOCK_M, N), "float32")
        x_f = T.alloc_fragment((BLOCK_M, N), "float32")
        row_max = T.alloc_fragment((BLOCK_M,), "float32")
        row_sum = T.alloc_fragment((BLOCK_M,), "float32")
        T.copy(X[bx * BLOCK_M, 0], x_s)
        T.copy(x_s, x_f)
        T.reduce_max(x_f, row_max, dim=1)
        for i, j in T.Parallel(BLOCK_M, N):
            x_f[i, j] = T.exp2(x_f[i, j] * LOG2E - row_max[i] * LOG2E)
        T.reduce_sum(x_f, row_sum, dim=1)
        for i, j in T.Parallel(BLOCK_M, N):
            x_f[i, j] = x_f[i, j] / row_sum[i]
        T.copy(x_f, y_s)
        T.copy(y_s, Y[bx * BLOCK_M, 0])
