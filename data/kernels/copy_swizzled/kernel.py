"""Elementwise y = 2x + 1 on a 1024 x 1024 fp16 matrix through a swizzled shared tile: each block
copies a 64 x 64 tile into shared memory laid out by tilelang.layout.make_swizzled_layout (the XOR
swizzle TileLang uses for MMA operands, annotated with T.annotate_layout), then reads it back into
registers, computes, and stores the result. 128 threads. Lowered for sm_80."""
import tilelang.language as T
from tilelang.layout import make_swizzled_layout

M, N = 1024, 1024
TILE = 64
THREADS = 128


@T.prim_func
def copy_swizzled(
    X: T.Tensor((M, N), "float16"),
    Y: T.Tensor((M, N), "float16"),
):
    with T.Kernel(T.ceildiv(N, TILE), T.ceildiv(M, TILE), threads=THREADS) as (bx, by):
        x_s = T.alloc_shared((TILE, TILE), "float16")
        y_f = T.alloc_fragment((TILE, TILE), "float16")
        T.annotate_layout({x_s: make_swizzled_layout(x_s)})
        T.copy(X[by * TILE, bx * TILE], x_s)
        for i, j in T.Parallel(TILE, TILE):
            y_f[i, j] = x_s[i, j] * T.float16(2) + T.float16(1)
        T.copy(y_f, Y[by * TILE, bx * TILE])
