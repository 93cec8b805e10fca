"""float32 GEMM C = A @ B^T on tensor cores (tf32), B stored N x K ("NT"), 1024 x 1024 x 1024:
128 x 64 x 32 blocks, 128 threads, 3 stages, T.gemm(..., transpose_B=True): both operand tiles are
K-contiguous float tiles (unlike gemm_tf32, whose B tile is N-contiguous). Held-out kernel, lowered
for sm_80."""
import tilelang.language as T

M, N, K = 1024, 1024, 1024
BLOCK_M, BLOCK_N, BLOCK_K = 128, 64, 32
STAGES = 3
THREADS = 128


@T.prim_func
def gemm_tf32_transB(
    A: T.Tensor((M, K), "float32"),
    B: T.Tensor((N, K), "float32"),
    C: T.Tensor((M, N), "float32"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), T.ceildiv(M, BLOCK_M), threads=THREADS) as (bx, by):
        A_shared = T.alloc_shared((BLOCK_M, BLOCK_K), "float32")
        B_shared = T.alloc_shared((BLOCK_N, BLOCK_K), "float32")
        C_local = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, BLOCK_K), num_stages=STAGES):
            T.copy(A[by * BLOCK_M, ko * BLOCK_K], A_shared)
            T.copy(B[bx * BLOCK_N, ko * BLOCK_K], B_shared)
            T.gemm(A_shared, B_shared, C_local, transpose_B=True)
        T.copy(C_local, C[by * BLOCK_M, bx * BLOCK_N])
