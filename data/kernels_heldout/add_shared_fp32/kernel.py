"""Elementwise C = A + B on 1024 x 1024 float32 matrices through unswizzled shared tiles: each block
copies a 64 x 64 tile of A and one of B into plain row-major shared buffers with T.Parallel (no
layout annotation, no T.copy, so no swizzle: 256-byte rows, every row starting in bank 0), adds them
into a third shared tile, and copies that out with T.Parallel. 128 threads. Held-out kernel, lowered
for sm_80."""
import tilelang.language as T

M, N = 1024, 1024
TILE = 64
THREADS = 128


@T.prim_func
def add_shared_fp32(
    A: T.Tensor((M, N), "float32"),
    B: T.Tensor((M, N), "float32"),
    C: T.Tensor((M, N), "float32"),
):
    with T.Kernel(T.ceildiv(N, TILE), T.ceildiv(M, TILE), threads=THREADS) as (bx, by):
        a_s = T.alloc_shared((TILE, TILE), "float32")
        b_s = T.alloc_shared((TILE, TILE), "float32")
        c_s = T.alloc_shared((TILE, TILE), "float32")
        for i, j in T.Parallel(TILE, TILE):
            a_s[i, j] = A[by * TILE + i, bx * TILE + j]
            b_s[i, j] = B[by * TILE + i, bx * TILE + j]
        for i, j in T.Parallel(TILE, TILE):
            c_s[i, j] = a_s[i, j] + b_s[i, j]
        for i, j in T.Parallel(TILE, TILE):
            C[by * TILE + i, bx * TILE + j] = c_s[i, j]
