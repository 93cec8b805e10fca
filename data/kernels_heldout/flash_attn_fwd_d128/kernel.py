"""Flash-attention forward (non-causal), O = softmax(Q K^T / sqrt(d)) V, with a larger head and block
than flash_attn_fwd: batch 1, 8 heads, 1024 tokens, head dim 128, fp16 in and out, layout [batch,
seq, heads, dim]. Each block owns 128 query rows of one head (256 threads, 8 warps), keeps them in
shared memory (256-byte rows), and walks the keys and values 64 at a time (2-stage pipeline): S = Q
K^T by T.gemm (transpose_B), an online softmax in base 2 with T.reduce_max and T.reduce_sum on the
float32 fragment, the running output rescaled, then O += P V by a second T.gemm with P taken from
registers, and the output through an unswizzled 128 x 128 shared tile. Held-out kernel, lowered for
sm_80."""
import tilelang.language as T

BATCH, HEADS, SEQ, DIM = 1, 8, 1024, 128
BLOCK_M, BLOCK_N = 128, 64
STAGES = 2
THREADS = 256
LOG2E = 1.44269504
SCALE = (1.0 / DIM) ** 0.5 * LOG2E
SHAPE = (BATCH, SEQ, HEADS, DIM)


@T.prim_func
def flash_attn_fwd_d128(
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
