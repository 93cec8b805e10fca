"""fp16 GEMM C = A^T @ B with A stored K x M ("TN"), 1024 x 1024 x 1024: 128 x 128 x 64 blocks, 128
threads, 2 stages; T.gemm(..., transpose_A=True), so the A tile in shared memory is K x M (M
contiguous) and is read by ldmatrix with .trans. Held-out kernel, lowered for sm_80."""
import tilelang.language as T

M, N, K = 1024, 1024, 1024
BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
STAGES = 2
THREADS = 128


@T.prim_func
def gemm_fp16_transA(
    A: T.Tensor((K, M), "float16"),
    B: T.Tensor((K, N), "float16"),
    C: T.Tensor((M, N), "float16"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), T.ceildiv(M, BLOCK_M), threads=THREADS) as (bx, by):
        A_shared = T.alloc_shared((BLOCK_K, BLOCK_M), "float16")
        B_shared = T.alloc_shared((BLOCK_K, BLOCK_N), "float16")
        C_local = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, BLOCK_K), num_stages=STAGES):
            T.copy(A[ko * BLOCK_K, by * BLOCK_M], A_shared)
            T.copy(B[ko * BLOCK_K, bx * BLOCK_N], B_shared)
            T.gemm(A_shared, B_shared, C_local, transpose_A=True)
        T.copy(C_local, C[by * BLOCK_M, bx * BLOCK_N])
