"""bfloat16 GEMM C = A @ B (1024 x 1024 x 1024) with a non-square block: 128 x 64 x 32 blocks, 128
threads (4 warps), a 2-stage pipeline (stage index ko & 1), float32 accumulation, bfloat16 result:
bf16 mma.sync m16n8k16 and bfloat16_t shared tiles. Held-out kernel, lowered for sm_80."""
import tilelang.language as T

M, N, K = 1024, 1024, 1024
BLOCK_M, BLOCK_N, BLOCK_K = 128, 64, 32
STAGES = 2
THREADS = 128


@T.prim_func
def gemm_bf16_128x64x32_s2(
    A: T.Tensor((M, K), "bfloat16"),
    B: T.Tensor((K, N), "bfloat16"),
    C: T.Tensor((M, N), "bfloat16"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), T.ceildiv(M, BLOCK_M), threads=THREADS) as (bx, by):
        A_shared = T.alloc_shared((BLOCK_M, BLOCK_K), "bfloat16")
        B_shared = T.alloc_shared((BLOCK_K, BLOCK_N), "bfloat16")
        C_local = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, BLOCK_K), num_stages=STAGES):
            T.copy(A[by * BLOCK_M, ko * BLOCK_K], A_shared)
            T.copy(B[ko * BLOCK_K, bx * BLOCK_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.copy(C_local, C[by * BLOCK_M, bx * BLOCK_N])
