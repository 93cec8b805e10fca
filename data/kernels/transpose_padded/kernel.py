"""Transpose of a 1024 x 1024 float32 matrix through a padded shared tile: each block reads a 64 x 64
tile row by row into a 64 x 65 shared buffer (one float of padding per row), then reads it back
column by column and writes the transposed tile row by row. Without the padding the column reads
would hit one bank 32 times; with it they spread over all 32. 256 threads. Lowered for sm_80."""
import tilelang.language as T

N = 1024
TILE = 64
PAD = 1
THREADS = 256


@T.prim_func
def transpose_padded(
    A: T.Tensor((N, N), "float32"),
    B: T.Tensor((N, N), "float32"),
):
    with T.Kernel(T.ceildiv(N, TILE), T.ceildiv(N, TILE), threads=THREADS) as (bx, by):
        tile = T.alloc_shared((TILE, TILE + PAD), "float32")
        for i, j in T.Parallel(TILE, TILE):
            tile[i, j] = A[by * TILE + i, bx * TILE + j]
        for i, j in T.Parallel(TILE, TILE):
            B[bx * TILE + i, by * TILE + j] = tile[j, i]
