# SPDX-License-Identifier: Apache-2.0
"""Small Triton kernels compiled on the CPU to TTGIR (no GPU needed) for
tools/gen_triton_mlir_goldens.py: the types a real dump holds, with its alias definitions.

Run as a script (`python tools/triton_kernels_for_goldens.py KERNEL BACKEND ARCH WARP_SIZE`) it prints
the TTGIR of one kernel for one target; the generator runs it in a subprocess per target.
"""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def softmax(x_ptr, y_ptr, N, BN: tl.constexpr, BM: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    m = tl.max(x, axis=1)
    e = tl.exp(x - m[:, None])
    s = tl.sum(e, axis=1)
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], e / s[:, None])


@triton.jit
def transpose(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(x_ptr + r[:, None] * BN + c[None, :])
    tl.store(y_ptr + c[:, None] * BM + r[None, :], tl.trans(x))


MM = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
      "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
KERNELS = {
    "matmul_64x16x16": (matmul, MM, {"BM": 64, "BN": 16, "BK": 16}),
    "matmul_32x32x32": (matmul, MM, {"BM": 32, "BN": 32, "BK": 32}),
    "softmax_4x128": (softmax, {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32", "BN": "constexpr",
                                "BM": "constexpr"}, {"BN": 128, "BM": 4}),
    "transpose_32x32": (transpose, {"x_ptr": "*fp16", "y_ptr": "*fp16", "BM": "constexpr",
                                    "BN": "constexpr"}, {"BM": 32, "BN": 32}),
}
TARGETS = [("cuda", "80", 32), ("cuda", "90", 32), ("cuda", "100", 32), ("hip", "gfx942", 64)]

if __name__ == "__main__":
    name, backend, arch, warp = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    fn, sig, ce = KERNELS[name]
    src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=ce)
    target = GPUTarget(backend, int(arch) if backend == "cuda" else arch, warp)
    print(triton.compile(src, target=target, options={"num_stages": 3}).asm["ttgir"])
