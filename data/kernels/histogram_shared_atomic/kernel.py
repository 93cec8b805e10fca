"""A 256-bin histogram of 1M int32 values (taken modulo 256): each block clears a shared histogram,
counts its 4096 values into it with T.atomic_add on shared memory (the address depends on the data,
so no static bank prediction is possible), then adds its bins to the global histogram with global
atomics. 256 threads. Lowered for sm_80."""
import tilelang.language as T

N = 1 << 20
BINS = 256
PER_BLOCK = 4096
THREADS = 256


@T.prim_func
def histogram_shared_atomic(
    X: T.Tensor((N,), "int32"),
    H: T.Tensor((BINS,), "int32"),
):
    with T.Kernel(T.ceildiv(N, PER_BLOCK), threads=THREADS) as bx:
        hist = T.alloc_shared((BINS,), "int32")
        for i in T.Parallel(BINS):
            hist[i] = 0
        for i in T.Parallel(PER_BLOCK):
            T.atomic_add(hist[X[bx * PER_BLOCK + i] % BINS], 1)
        for i in T.Parallel(BINS):
            T.atomic_add(H[i], hist[i])
