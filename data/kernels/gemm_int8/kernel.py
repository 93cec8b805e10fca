"""int8 GEMM C = A @ B^T with int32 accumulation and an int32 result, 1024 x 1024 x 1024: A is M x K,
B is N x K (both K-contiguous, as the int8 tensor-core MMA wants them), 128 x 128 x 64 blocks,
128 threads, 3 stages. Lowered for sm_80."""
import tilelang.language as T

M, N, K = 1024, 1024, 1024
BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
STAGES = 3
THREADS = 128


@T.prim_func
def gemm_int8(
    A: T.Tensor((M, K), "int8"),
    B: T.Tensor((N, K), "int8"),
    C: T.Tensor((M, N), "int32"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), T.ceildiv(M, BLOCK_M), threads=THREADS) as (bx, by):
        A_shared = T.alloc_shared((BLOCK_M, BLOCK_K), "int8")
        B_shared = T.alloc_shared((BLOCK_N, BLOCK_K), "int8")
        C_local = T.alloc_fragment((BLOCK_M, BLOCK_N), "int32")
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, BLOCK_K), num_stages=STAGES):
            T.copy(A[by * BLOCK_M, ko * BLOCK_K], A_shared)
            T.copy(B[bx * BLOCK_N, ko * BLOCK_K], B_shared)
            T.gemm(A_shared, B_shared, C_local, transpose_B=True)
        T.copy(C_local, C[by * BLOCK_M, bx * BLOCK_N])
