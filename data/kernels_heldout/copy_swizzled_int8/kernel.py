"""Elementwise y = x + 3 on a 1024 x 1024 int8 matrix through a swizzled shared tile: each block
copies a 64 x 128 int8 tile (128-byte rows) into shared memory laid out by
tilelang.layout.make_swizzled_layout (T.annotate_layout), reads it back into registers, adds, and
stores the result. The int8 counterpart of copy_swizzled (a 1-byte element, so 16 elements per
16-byte chunk). 128 threads. Held-out kernel, lowered for sm_80."""
import tilelang.language as T
from tilelang.layout import make_swizzled_layout

M, N = 1024, 1024
TILE_M, TILE_N = 64, 128
THREADS = 128


@T.prim_func
def copy_swizzled_int8(
    X: T.Tensor((M, N), "int8"),
    Y: T.Tensor((M, N), "int8"),
):
    with T.Kernel(T.ceildiv(N, TILE_N), T.ceildiv(M, TILE_M), threads=THREADS) as (bx, by):
        x_s = T.alloc_shared((TILE_M, TILE_N), "int8")
        y_f = T.alloc_fragment((TILE_M, TILE_N), "int8")
        T.annotate_layout({x_s: make_swizzled_layout(x_s)})
        T.copy(X[by * TILE_M, bx * TILE_N], x_s)
        for i, j in T.Parallel(TILE_M, TILE_N):
            y_f[i, j] = x_s[i, j] + T.int8(3)
        T.copy(y_f, Y[by * TILE_M, bx * TILE_N])
