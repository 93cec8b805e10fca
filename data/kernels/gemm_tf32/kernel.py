"""float32 GEMM C = A @ B (1024 x 1024 x 1024) on tensor cores (tf32 MMA): 128 x 128 x 32 blocks,
128 threads, 3 stages. ldmatrix cannot transpose 32-bit elements, so how the operands are read from
shared memory differs from the fp16 GEMMs. Lowered for sm_80."""
import tilelang.language as T

M, N, K = 1024, 1024, 1024
BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 32
STAGES = 3
THREADS = 128


@T.prim_func
def gemm_tf32(
    A: T.Tensor((M, K), "float32"),
    B: T.Tensor((K, N), "float32"),
    C: T.Tensor((M, N), "float32"),
):
    with T.Kernel(T.ceildiv(N, BLOCK_N), T.ceildiv(M, BLOCK_M), threads=THREADS) as (bx, by):
        A_shared = T.alloc_shared((BLOCK_M, BLOCK_K), "float32")
        B_shared = T.alloc_shared((BLOCK_K, BLOCK_N), "float32")
        C_local = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, BLOCK_K), num_stages=STAGES):
            T.copy(A[by * BLOCK_M, ko * BLOCK_K], A_shared)
            T.copy(B[ko * BLOCK_K, bx * BLOCK_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.copy(C_local, C[by * BLOCK_M, bx * BLOCK_N])
