"""Transpose of a 1024 x 1024 fp16 matrix through an unpadded 32 x 32 shared tile: each block reads a
32 x 32 tile row by row into the shared buffer (64-byte rows), then reads it back column by column
(a stride of 64 bytes, so two rows share each 128-byte bank line and a warp's column reads pile up
on a few banks: bank conflicts expected) and writes the transposed tile row by row. 128 threads.
The unpadded counterpart of transpose_padded, in half precision. Held-out kernel, lowered for
sm_80."""
import tilelang.language as T

N = 1024
TILE = 32
THREADS = 128


@T.prim_func
def transpose_fp16_unpadded(
    A: T.Tensor((N, N), "float16"),
    B: T.Tensor((N, N), "float16"),
):
    with T.Kernel(T.ceildiv(N, TILE), T.ceildiv(N, TILE), threads=THREADS) as (bx, by):
        tile = T.alloc_shared((TILE, TILE), "float16")
        for i, j in T.Parallel(TILE, TILE):
            tile[i, j] = A[by * TILE + i, bx * TILE + j]
        for i, j in T.Parallel(TILE, TILE):
            B[bx * TILE + i, by * TILE + j] = tile[j, i]
