"""Flash-attention forward sized for the kernel X-ray benchmark (BENCHMARKS.md): the program of
data/kernels/flash_attn_fwd at 128x128 blocks, head dim 128, 2048 tokens, 6 pipeline stages and
256 threads. TileLang 0.1.15 writes 995 lines of CUDA for it (sm_80). Its 416 KB of shared memory
fit no GPU: the X-ray says so; it is here for its size, not to run."""
import tilelang.language as T

BATCH, HEADS, SEQ, DIM = 1, 8, 2048, 128
BLOCK_M, BLOCK_N = 128, 128
STAGES = 6
THREADS = 256
LOG2E = 1.44269504
SCALE = (1.0 / DIM) ** 0.5 * LOG2E
SHAPE = (BATCH, SEQ, HEADS, DIM)


@T.prim_func
def flash_attn_fwd(
    Q: T.Tensor(SHAPE, "float16"),
    K: T.Tensor(SHAPE, "float16"),
    V: T.Tensor(SHAPE, "float16"),
    O: T.Tensor(SHAPE, "float16"),
):
    with T.Kernel(T.ceildiv(SEQ, BLOCK_M), HEADS, BATCH, threads=THREADS) as (bq, h, b):
        q_s = T.alloc_shared((BLOCK_M, DIM), "float16")
        k_s = T.alloc_shared((BLOCK_N, DIM), "float16")
        v_s = T.alloc_shared((BLOCK_N, DIM), "float16")
        o_s = T.alloc_shared((BLOCK_M, DIM), "float16")
        s_f = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        p_f = T.alloc_fragment((BLOCK_M, BLOCK_N), "float16")
        o_f = T.alloc_fragment((BLOCK_M, DIM), "float32")
        m_new = T.alloc_fragment((BLOCK_M,), "float32")
        m_old = T.alloc_fragment((BLOCK_M,), "float32")
        alpha = T.alloc_fragment((BLOCK_M,), "float32")
        row_sum = T.alloc_fragment((BLOCK_M,), "float32")
        denom = T.alloc_fragment((BLOCK_M,), "float32")

        T.copy(Q[b, bq * BLOCK_M:(bq + 1) * BLOCK_M, h, :], q_s)
        T.fill(o_f, 0)
        T.fill(denom, 0)
        T.fill(m_new, -T.infinity("float32"))

        for kb in T.Pipelined(T.ceildiv(SEQ, BLOCK_N), num_stages=STAGES):
            # scores for this key block
            T.copy(K[b, kb * BLOCK_N:(kb + 1) * BLOCK_N, h, :], k_s)
            T.clear(s_f)
            T.gemm(q_s, k_s, s_f, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
            # online softmax: new running max, the factor for what was summed so far
            T.copy(m_new, m_old)
            T.reduce_max(s_f, m_new, dim=1, clear=False)
            for i in T.Parallel(BLOCK_M):
                alpha[i] = T.exp2(m_old[i] * SCALE - m_new[i] * SCALE)
            for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                s_f[i, j] = T.exp2(s_f[i, j] * SCALE - m_new[i] * SCALE)
            T.reduce_sum(s_f, row_sum, dim=1)
            for i in T.Parallel(BLOCK_M):
                denom[i] = denom[i] * alpha[i] + row_sum[i]
            T.copy(s_f, p_f)
            for i, j in T.Parallel(BLOCK_M, DIM):
                o_f[i, j] *= alpha[i]
            # accumulate P V
            T.copy(V[b, kb * BLOCK_N:(kb + 1) * BLOCK_N, h, :], v_s)
            T.gemm(p_f, v_s, o_f, policy=T.GemmWarpPolicy.FullRow)

        for i, j in T.Parallel(BLOCK_M, DIM):
            o_f[i, j] /= denom[i]
        T.copy(o_f, o_s)
        T.copy(o_s, O[b, bq * BLOCK_M:(bq + 1) * BLOCK_M, h, :])
