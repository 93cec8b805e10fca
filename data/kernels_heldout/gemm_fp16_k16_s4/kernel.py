"""fp16 GEMM C = A @ B (1024 x 1024 x 1024) with a narrow K tile: 128 x 128 x 16 blocks, 128 threads,
4 stages; the A tile rows are only 16 halves (32 bytes) wide, so its swizzle and its cp.async and
ldmatrix pattern differ from the 64- and 128-byte rows of the first corpus. Held-out kernel, lowered
for sm_80."""
import tilelang.language as T

M, N, K = 1024, 1024, 1024
BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 16
STAGES = 4
THREADS = 128


@T.prim_func
def gemm_fp16_k16_s4(
    A: T.Tensor((M, K), "float16"),
    B: T.Tensor((K, N), "float16"),
    C: T.Tensor((M, N), "float16"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), T.ceildiv(M, BLOCK_M), threads=THREADS) as (bx, by):
        A_shared = T.alloc_shared((BLOCK_M, BLOCK_K), "float16")
        B_shared = T.alloc_shared((BLOCK_K, BLOCK_N), "float16")
        C_local = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, BLOCK_K), num_stages=STAGES):
            T.copy(A[by * BLOCK_M, ko * BLOCK_K], A_shared)
            T.copy(B[ko * BLOCK_K, bx * BLOCK_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.copy(C_local, C[by * BLOCK_M, bx * BLOCK_N])
