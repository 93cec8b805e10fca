// SPDX-License-Identifier: Apache-2.0
// tilelang-ascend ND -> NZ round-trip scripts for the ascendc_pto and npuir branches (see
// ascend_kernel.h).
#include "tilescope/device/ascend_kernel.h"

#include "tilescope/support/errors.h"

#include <sstream>

namespace ts {

namespace {

std::int64_t roundUp(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b * b;
}

// torch spelling of a cube dtype (int4 travels as packed int8 bytes, two values per byte).
std::string torchDtype(const std::string& dtype) {
    if (dtype == "float16") return "torch.float16";
    if (dtype == "bfloat16") return "torch.bfloat16";
    if (dtype == "float32") return "torch.float32";
    if (dtype == "int32") return "torch.int32";
    return "torch.int8"; // int8, and int4's packed bytes
}

void checkShape(const AscendKernelOptions& opt) {
    if (opt.rows <= 0 || opt.cols <= 0 || opt.rows > 4096 || opt.cols > 4096)
        throw InputError("Ascend round trip: ND shape must be 1..4096 per dimension, got " +
                         std::to_string(opt.rows) + " x " + std::to_string(opt.cols));
    if (opt.dtype == "int4" && opt.cols % 2 != 0)
        throw InputError("Ascend round trip: int4 needs an even column count (two values per "
                         "byte), got " +
                         std::to_string(opt.cols));
}

// The shared header of both scripts: imports, shapes, the host-side expectations.
void scriptHeader(std::ostringstream& o, const AscendKernelOptions& opt,
                  const AscendRoundTripTile& t) {
    const auto nz = ndToNzShape(opt.rows, opt.cols, opt.dtype);
    // The footprint checked before generating, so that the script says what it was checked for.
    std::istringstream fp(ascendFootprint(opt).describe());
    o << "# On-chip footprint, checked by Tilescope against the chip's capacities:\n";
    for (std::string line; std::getline(fp, line);)
        o << "#   " << line << "\n";
    o << "import sys\nimport time\n"
         "import numpy as np\n"
         "try:\n"
         "    import tilelang\n"
         "    import tilelang.language as T\n"
         "    import torch\n"
         "    import torch_npu  # noqa: F401\n"
         "except Exception as e:  # noqa: BLE001\n"
         "    print('TILESCOPE_ERROR cannot import tilelang-ascend / torch_npu:', e, flush=True)\n"
         "    sys.exit(3)\n\n"
      << "ROWS, COLS = " << opt.rows << ", " << opt.cols << "\n"
      << "DTYPE, ACCUM = \"" << opt.dtype << "\", \"" << t.accum << "\"\n"
      << "C0 = " << nz[3] << "  # elements per 32-byte fractal row\n"
      << "ROWS1, COLS1 = " << nz[1] << ", " << nz[0] << "  # NZ (zN) fractal grid in L1\n"
      << "M, K, N = " << t.m << ", " << t.k << ", " << t.n
      << "  # L0A M x K, L0B K x N (identity), L0C M x N\n"
      << "TORCH_IN, TORCH_ACC = " << torchDtype(opt.dtype) << ", " << torchDtype(t.accum)
      << "\n\n\n"
         "def host_input():\n"
         "    # Small integers are exact in every input type and through the identity mmad.\n"
         "    g = np.random.default_rng(0)\n"
         "    lo, hi = (-8, 8) if DTYPE == 'int4' else (-64, 64)\n"
         "    return g.integers(lo, hi, size=(ROWS, COLS)).astype(np.int64)\n\n\n"
         "def expected_nd(a):\n"
         "    # L0C after A x I, converted back to ND: the zero-padded input.\n"
         "    out = np.zeros((M, N), dtype=np.int64)\n"
         "    out[:ROWS, :COLS] = a\n"
         "    return out\n\n\n"
         "def identity():\n"
         "    return np.eye(K, N, dtype=np.int64)\n\n\n"
         "def to_device(a):\n"
         "    if DTYPE == 'int4':\n"
         "        # Two int4 values per byte, the even column in the low nibble.\n"
         "        lo = (a[:, 0::2] & 0xF).astype(np.uint8)\n"
         "        hi = (a[:, 1::2] & 0xF).astype(np.uint8)\n"
         "        return torch.from_numpy((lo | (hi << 4)).view(np.int8)).npu()\n"
         "    return torch.from_numpy(a.astype(np.float32)).to(TORCH_IN).npu()\n\n\n";
}

void scriptMain(std::ostringstream& o, const std::string& compile, const std::string& call,
                const std::string& checks) {
    o << "def main():\n"
         "    t0 = time.time()\n"
      << compile
      << "    print('TILESCOPE_LOWERED %.3f' % (time.time() - t0), flush=True)\n"
         "    a = host_input()\n"
         "    dev_a = to_device(a)\n"
         "    dev_i = to_device(identity())\n"
      << call << checks
      << "    print('TILESCOPE_ROUNDTRIP ' + ('pass' if ok else 'fail'), flush=True)\n"
         "    torch.npu.synchronize()\n"
         "    reps = 50  # wall clock over launches; msprof op gives the kernel's own time\n"
         "    t1 = time.time()\n"
         "    for _ in range(reps):\n"
      << "        " << call.substr(call.find_first_not_of(' '))
      << "    torch.npu.synchronize()\n"
         "    print('TILESCOPE_LATENCY_MS %.6f' % ((time.time() - t1) * 1000 / reps), "
         "flush=True)\n"
         "    return 0 if ok else 6\n\n\n"
         "if __name__ == '__main__':\n"
         "    sys.exit(main())\n";
}

std::string releasedScript(const AscendKernelOptions& opt, const AscendRoundTripTile& t) {
    std::ostringstream o;
    o << "# Generated by tilescope: ND -> NZ round trip for tilelang-ascend, branch ascendc_pto\n"
         "# (the default branch; PyPI tilelang-ascend 0.1.4). Data paths, all present on A2/A3:\n"
         "#   A:  GM (ND) --ND2NZ DMA, tail zero-filled--> L1 (zN) --> L0A\n"
         "#   I:  GM (ND) --ND2NZ DMA--> L1 --> L0B   (identity K x N)\n"
         "#   mmad L0A x L0B -> L0C;  L0C --fixpipe, NZ2ND--> GM\n"
         "# C must equal the zero-padded A: data arrival and padding are checked. The L1 fractal\n"
         "# order itself is not observable on this branch (its L0C -> GM copy always converts\n"
         "# to ND); the npuir back end stores L0C without that conversion.\n"
         "# Not run by Tilescope's developers: no Ascend NPU (docs/ascend.md).\n";
    o << "# Written for tilelang-ascend ascendc_pto @ " << ascendTilelangCommit(opt.backend)
      << ".\n";
    scriptHeader(o, opt, t);
    o << "@tilelang.jit(out_idx=[-1], target=\"ascendc\")\n"
         "def build():\n"
         "    @T.prim_func\n"
         "    def nd2nz_roundtrip(A: T.Tensor((ROWS, COLS), DTYPE),\n"
         "                        I: T.Tensor((K, N), DTYPE),\n"
         "                        C: T.Tensor((M, N), ACCUM)):\n"
         "        with T.Kernel(1, is_npu=True) as (cid, _):\n"
         "            A_L1 = T.alloc_L1((M, K), DTYPE)\n"
         "            I_L1 = T.alloc_L1((K, N), DTYPE)\n"
         "            A_L0 = T.alloc_L0A((M, K), DTYPE)\n"
         "            I_L0 = T.alloc_L0B((K, N), DTYPE)\n"
         "            C_L0 = T.alloc_L0C((M, N), ACCUM)\n"
         "            with T.Scope(\"C\"):\n"
         "                # One copy at offset 0: copy_gm_to_l1 zero-fills the whole tile first\n"
         "                # when the tail is partial, so no explicit clear is needed.\n"
         "                T.copy(A[0:ROWS, 0:COLS], A_L1[0:ROWS, 0:COLS])\n"
         "                T.copy(I, I_L1)\n"
         "                T.barrier_all()\n"
         "                T.copy(A_L1, A_L0)\n"
         "                T.copy(I_L1, I_L0)\n"
         "                T.barrier_all()\n"
         "                T.mma(A_L0, I_L0, C_L0, init=True)\n"
         "                T.barrier_all()\n"
         "                T.copy(C_L0, C)\n\n"
         "    return nd2nz_roundtrip\n\n\n";
    scriptMain(o, "    kernel = build()\n", "    c = kernel(dev_a, dev_i)\n",
               "    got = c.cpu().to(torch.float64).numpy().astype(np.int64)\n"
               "    ok = np.array_equal(got, expected_nd(a))\n");
    return o.str();
}

std::string npuirScript(const AscendKernelOptions& opt, const AscendRoundTripTile& t) {
    std::ostringstream o;
    o << "# Generated by tilescope: ND -> NZ round trip for tilelang-ascend, branch npuir\n"
         "# (AscendNPU IR; needs bishengir-compile on PATH). Data paths, all present on A2/A3:\n"
         "#   A, I: GM (ND) --hivm nd2nz--> L1;  mmadL1 -> L0C;\n"
         "#   L0C --fixpipe with nz2nd--> C (ND), the only store form tilelang-ascend's npuir\n"
         "#   examples and tests use (a store without nz2nd is used nowhere upstream).\n"
         "# npuir's nd2nz does not clear the L1 tile (init_out_buffer = false), so the host "
         "passes\n"
         "# A already zero-padded to M x K.\n"
         "# Not run by Tilescope's developers: no Ascend NPU (docs/ascend.md).\n";
    o << "# Written for tilelang-ascend npuir @ " << ascendTilelangCommit(opt.backend) << ".\n";
    scriptHeader(o, opt, t);
    o << "@tilelang.jit(target=\"npuir\")\n"
         "def build():\n"
         "    @T.prim_func\n"
         "    def nd2nz_roundtrip(A: T.Tensor((M, K), DTYPE),\n"
         "                        I: T.Tensor((K, N), DTYPE),\n"
         "                        C: T.Tensor((M, N), ACCUM)):\n"
         "        with T.Kernel(1, is_npu=True) as (cid, _):\n"
         "            with T.Scope(\"Cube\"):\n"
         "                A_L1 = T.alloc_L1([M, K], DTYPE)\n"
         "                I_L1 = T.alloc_L1([K, N], DTYPE)\n"
         "                C_L0 = T.alloc_L0C([M, N], ACCUM)\n"
         "                T.load_nd2nz(A[0, 0], A_L1, [M, K])\n"
         "                T.load_nd2nz(I[0, 0], I_L1, [K, N])\n"
         "                T.gemm(A_L1, I_L1, C_L0, initC=True, b_transpose=False, "
         "size=[M, K, N])\n"
         "                T.store_fixpipe(C_L0, C[0, 0], size=[M, N], enable_nz2nd=True)\n\n"
         "    return nd2nz_roundtrip\n\n\n";
    scriptMain(
        o, "    kernel = build()\n", "    kernel(dev_pad, dev_i, c)\n",
        "    exp = expected_nd(a)\n"
        "    ok = np.array_equal(c.cpu().to(torch.float64).numpy().astype(np.int64), exp)\n");
    // The padded input and the output are made between the input and the call.
    std::string s = o.str();
    const std::string at = "    dev_a = to_device(a)\n";
    s.replace(s.find(at), at.size(),
              "    pad = np.zeros((M, K), dtype=np.int64)\n"
              "    pad[:ROWS, :COLS] = a\n"
              "    dev_pad = to_device(pad)\n"
              "    c = torch.zeros(M, N, dtype=TORCH_ACC).npu()\n");
    return s;
}

} // namespace

std::string ascendBackendName(AscendBackend b) {
    return b == AscendBackend::Npuir ? "npuir" : "ascendc_pto";
}

AscendBackend parseAscendBackend(const std::string& s) {
    if (s == "ascendc_pto" || s == "released" || s == "ascendc") return AscendBackend::AscendcPto;
    if (s == "npuir") return AscendBackend::Npuir;
    throw InputError("unknown tilelang-ascend back end '" + s + "' (ascendc_pto, npuir)");
}

int ascendC0(const std::string& dtype) {
    if (dtype == "float16" || dtype == "bfloat16" || dtype == "int16") return 16;
    if (dtype == "float32" || dtype == "float" || dtype == "int32") return 8;
    if (dtype == "int8" || dtype == "uint8") return 32;
    if (dtype == "int4") return 64;
    throw InputError("unsupported Ascend dtype '" + dtype +
                     "' (float16, bfloat16, float32, int8, int4)");
}

std::string ascendAccumDtype(const std::string& dtype) {
    if (dtype == "float16" || dtype == "bfloat16" || dtype == "float32") return "float32";
    if (dtype == "int8" || dtype == "int4") return "int32";
    throw InputError("no cube (mmad) input type '" + dtype +
                     "' on Ascend (float16, bfloat16, float32, int8, int4)");
}

std::vector<std::int64_t> ndToNzShape(std::int64_t rows, std::int64_t cols,
                                      const std::string& dtype) {
    if (rows <= 0 || cols <= 0 || rows > (1 << 20) || cols > (1 << 20))
        throw InputError("ND shape must be positive and at most 2^20 per dimension");
    const std::int64_t c0 = ascendC0(dtype);
    return {(cols + c0 - 1) / c0, (rows + 15) / 16, 16, c0};
}

std::int64_t ndToNzIndex(std::int64_t r, std::int64_t c, std::int64_t rows, std::int64_t cols,
                         const std::string& dtype) {
    const auto s = ndToNzShape(rows, cols, dtype);
    if (r < 0 || c < 0 || r >= rows || c >= cols) throw InputError("ND element out of range");
    const std::int64_t c0 = s[3];
    return (((c / c0) * s[1] + r / 16) * 16 + r % 16) * c0 + c % c0;
}

AscendRoundTripTile ascendRoundTripTile(const AscendKernelOptions& opt) {
    checkShape(opt);
    AscendRoundTripTile t;
    t.accum = ascendAccumDtype(opt.dtype);
    t.m = roundUp(opt.rows, 16);
    // float32: K to 16, not C0 = 8. tilelang-ascend lowers the L1 -> L0A/L0B T.copy to
    // copy_l1_to_l0a/b (src/tl_templates/ascend/common.h:89-131), i.e. CATLASS's
    // TileCopyTla<AtlasA2, float zN -> zZ/nZ>, whose load3dv2 rounds K up to 16 ("K, N need to be
    // 16 aligned for f32", gemm/tile/atlasa2/copy_l1_to_l0b.hpp:707): with K = 8 it reads 8 rows
    // past the L1 tile and writes 8 past the L0B one. Padding K on the host keeps every load whole.
    t.k = roundUp(opt.cols, opt.dtype == "float32" ? 16 : ascendC0(opt.dtype));
    t.n = roundUp(t.k, 16);
    return t;
}

std::string ascendChipName(AscendChip c) {
    return c == AscendChip::Ascend950 ? "Ascend 950" : "Atlas A2/A3";
}
std::string ascendChipId(AscendChip c) {
    return c == AscendChip::Ascend950 ? "950" : "a2a3";
}
AscendChip parseAscendChip(const std::string& s) {
    if (s == "a2a3" || s == "a2" || s == "a3" || s == "A2" || s == "A3" || s == "910b" ||
        s == "A2/A3")
        return AscendChip::A2A3;
    if (s == "950" || s == "a5" || s == "A5" || s == "ascend950" || s == "Ascend950")
        return AscendChip::Ascend950;
    throw InputError("unknown Ascend chip '" + s + "' (a2a3, 950)");
}

AscendCapacity ascendChipCapacity(AscendChip c) {
    // Per AI Core (cube side: L1, L0A, L0B, L0C; vector side: UB). The runtime reports the same
    // quantities through aclrtGetDeviceInfo (ACL_PLATFORM_L1_SIZE, _L0_A_SIZE, _L0_B_SIZE,
    // _L0_C_SIZE, _AICORE_UB_SIZE: CANN runtime API, aclplatformDevInfo) and the tiling API
    // through PlatformAscendC::GetCoreMemSize (CANN Ascend C API); both read the CANN platform
    // config, which the documentation names but does not print. The values here are the ones CANN's
    // own CATLASS library builds for (include/catlass/arch/arch.hpp, Arch::AtlasA2 and
    // Arch::Ascend950, ascend-catlass-dsl 2.1.0) and, for UB, the CANN Ascend C best-practices
    // guide ("Avoiding Bank Conflicts in the Unified Buffer": 192 KB on A2/A3; 256 KB on the 950,
    // of which CATLASS uses 248 KB).
    if (c == AscendChip::Ascend950)
        return {512 * 1024, 64 * 1024, 64 * 1024, 256 * 1024, 256 * 1024};
    return {512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 192 * 1024};
}

std::string ascendChipCapacitySource(AscendChip c) {
    return c == AscendChip::Ascend950
               ? "CANN: CATLASS Arch::Ascend950 (include/catlass/arch/arch.hpp) and the Ascend C "
                 "best-practices guide (UB 256 KB)"
               : "CANN: CATLASS Arch::AtlasA2 (include/catlass/arch/arch.hpp) and the Ascend C "
                 "best-practices guide (UB 192 KB)";
}

std::string formatAscendBytes(std::int64_t b) {
    if (b < 1024) return std::to_string(b) + " B";
    // Two decimals at most, trailing zeros dropped: 14 KB, 511.75 KB.
    const std::int64_t hundredths = (b * 100 + 512) / 1024;
    std::string s = std::to_string(hundredths / 100);
    const std::int64_t frac = hundredths % 100;
    if (frac != 0) {
        s += "." + std::string(frac < 10 ? "0" : "") + std::to_string(frac);
        while (s.back() == '0')
            s.pop_back();
    }
    return s + " KB";
}

namespace {

// Bytes of n elements as tilelang-ascend's memory planning counts them (dtype.bytes() per
// element, so int4 as one byte) and aligns them (32 bytes: ascend_memory_planning.cc AlignUp).
std::int64_t bufferBytes(std::int64_t rows, std::int64_t cols, const std::string& dtype) {
    const std::int64_t es = dtype == "float32" || dtype == "int32"      ? 4
                            : dtype == "float16" || dtype == "bfloat16" ? 2
                                                                        : 1;
    return roundUp(rows * cols * es, 32);
}

std::string dims(std::int64_t r, std::int64_t c) {
    return std::to_string(r) + "x" + std::to_string(c);
}

} // namespace

AscendFootprint ascendFootprint(const AscendKernelOptions& opt) {
    AscendFootprint f;
    f.options = opt;
    f.tile = ascendRoundTripTile(opt); // shape and dtype-name errors throw
    const AscendRoundTripTile& t = f.tile;
    const AscendCapacity chip = ascendChipCapacity(opt.chip);
    const bool released = opt.backend == AscendBackend::AscendcPto;
    const bool a5 = opt.chip == AscendChip::Ascend950;
    // What the route gives its buffers. The released codegen carves fixed TBufs out of each
    // space (src/target/codegen_ascend.cc:30-40, PreFunctionBody: A2/A3 L1 524032, UB 196352,
    // L0A/L0B 65536, L0C 131072; A5 L0C and UB 262144), and its memory planning lays the
    // buffers end to end, 32-byte aligned, with its overflow check switched off
    // (ascend_memory_planning.cc PlanMemoryForScopeLinear: check_overflow = false): an oversize
    // tile compiles and overruns at run time, so the check has to be here. On npuir,
    // bishengir plans the memory; Tilescope knows no reservation there and uses the chip's size.
    const std::int64_t l1Usable = released ? 524032 : chip.l1;
    const std::int64_t ubUsable = released ? (a5 ? 262144 : 196352) : chip.ub;
    const std::string codegen = "tilelang-ascend's released codegen gives its L1 buffer " +
                                std::to_string(l1Usable) + " B (codegen_ascend.cc:32)";
    const std::string in = opt.dtype, acc = t.accum;
    auto add = [&](const std::string& space, const std::string& contents, std::int64_t bytes,
                   std::int64_t chipBytes, std::int64_t usable, const std::string& why) {
        f.buffers.push_back({space, contents, bytes, chipBytes, usable, why});
    };
    add("L1", "A_L1 " + dims(t.m, t.k) + " + I_L1 " + dims(t.k, t.n) + " " + in,
        bufferBytes(t.m, t.k, in) + bufferBytes(t.k, t.n, in), chip.l1, l1Usable,
        released ? codegen : std::string());
    // npuir allocates no L0A/L0B: T.gemm is hivm.hir.mmadL1 on L1 operands, and bishengir loads
    // them into L0A/L0B itself. How it splits them was not read, so the whole operands must fit.
    const std::string l0Note =
        released ? std::string() : " (loaded by bishengir's mmadL1; counted whole)";
    add("L0A", (released ? "A_L0 " : "A ") + dims(t.m, t.k) + " " + in + l0Note,
        bufferBytes(t.m, t.k, in), chip.l0a, chip.l0a, "");
    add("L0B", (released ? "I_L0 " : "I ") + dims(t.k, t.n) + " " + in + l0Note,
        bufferBytes(t.k, t.n, in), chip.l0b, chip.l0b, "");
    add("L0C", "C_L0 " + dims(t.m, t.n) + " " + acc, bufferBytes(t.m, t.n, acc), chip.l0c, chip.l0c,
        "");
    add("UB", "not used (the round trip is cube-only)", 0, chip.ub, ubUsable,
        released ? "tilelang-ascend's released codegen gives UB " + std::to_string(ubUsable) +
                       " B (codegen_ascend.cc:34/40)"
                 : std::string());

    for (const AscendBufferUse& b : f.buffers) {
        if (b.fits()) continue;
        std::string p = b.space + " needs " + formatAscendBytes(b.bytes) + ", the chip has " +
                        formatAscendBytes(b.chip_bytes);
        if (b.usable_bytes < b.chip_bytes)
            p += " and " + b.usable_source.substr(0, b.usable_source.find(" (")) + " (" +
                 formatAscendBytes(b.usable_bytes) + ")";
        p += ": " + b.contents + ", " + std::to_string(opt.rows) + " x " +
             std::to_string(opt.cols) + " " + opt.dtype +
             " padded to M, K, N = " + std::to_string(t.m) + ", " + std::to_string(t.k) + ", " +
             std::to_string(t.n) + " on " + ascendChipName(opt.chip) + " (" +
             ascendChipCapacitySource(opt.chip) +
             "). The round trip is one tile: use a smaller layout";
        f.problems.push_back(p);
    }
    if (released && opt.dtype == "int4")
        f.problems.push_back(
            "int4 on the ascendc_pto back end: the host must pass packed torch.int8 (ROWS, COLS/2) "
            "bytes, but tilelang-ascend's default cython adapter maps the parameter dtype with "
            "getattr(torch, \"int4\") (tilelang/utils/tensor.py:24-31) and refuses any other "
            "tensor dtype (\"Buffer dtype mismatch\", jit/adapter/cython/cython_wrapper.pyx:180); "
            "no ascendc_pto example runs an int4 mmad (the w4a8 example unpacks to int8 first). "
            "Use int8");
    // T.store_fixpipe supports only float32 L0C on A2/A3 (npuir docs, T.store_fixpipe.md 2.2.1),
    // so the integer accumulators cannot leave L0C on this route.
    if (!released && acc != "float32")
        f.problems.push_back("the npuir back end stores L0C with T.store_fixpipe, which takes "
                             "float32 only on A2/A3; " +
                             opt.dtype + " accumulates in " + acc +
                             ": use the ascendc_pto back end");
    return f;
}

std::string AscendFootprint::describe() const {
    std::ostringstream o;
    o << ascendChipName(options.chip) << ", " << ascendBackendName(options.backend) << ": "
      << options.rows << " x " << options.cols << " " << options.dtype << " -> M, K, N = " << tile.m
      << ", " << tile.k << ", " << tile.n << "\n";
    for (const AscendBufferUse& b : buffers) {
        o << b.space << (b.space.size() == 2 ? "  " : " ") << formatAscendBytes(b.bytes) << " of "
          << formatAscendBytes(b.usable_bytes);
        if (b.usable_bytes != b.chip_bytes)
            o << " usable (chip " << formatAscendBytes(b.chip_bytes) << ")";
        if (b.chip_bytes > 0 && b.bytes > 0)
            o << ", " << (b.bytes * 100 + b.usable_bytes / 2) / b.usable_bytes << "%";
        o << (b.fits() ? "" : "  DOES NOT FIT") << "  " << b.contents << "\n";
    }
    // The capacity problems in short (the table above has the buffers), the other rules whole.
    std::string refused;
    for (const AscendBufferUse& b : buffers)
        if (!b.fits())
            refused += (refused.empty() ? "" : "; ") + b.space + " needs " +
                       formatAscendBytes(b.bytes) + ", the chip has " +
                       formatAscendBytes(b.chip_bytes) +
                       (b.usable_bytes < b.chip_bytes
                            ? " (" + formatAscendBytes(b.usable_bytes) + " usable)"
                            : std::string());
    for (const std::string& p : problems)
        if (p.find(" needs ") == std::string::npos ||
            p.find(", the chip has ") == std::string::npos)
            refused += (refused.empty() ? "" : "; ") + p;
    if (!refused.empty()) o << "Refused: " << refused << ".\n";
    o << "Capacities: " << ascendChipCapacitySource(options.chip) << "\n";
    return o.str();
}

std::string generateAscendNdToNzKernel(const AscendKernelOptions& opt) {
    const AscendFootprint f = ascendFootprint(opt);
    if (!f.ok()) {
        std::string all;
        for (const std::string& p : f.problems)
            all += (all.empty() ? "" : "; ") + p;
        throw InputError(all);
    }
    return opt.backend == AscendBackend::Npuir ? npuirScript(opt, f.tile)
                                               : releasedScript(opt, f.tile);
}

std::string ascendTilelangCommit(AscendBackend b) {
    return b == AscendBackend::Npuir ? "bd7c60c312b0721885c78d1ce03c62be9225314c"
                                     : "95acbd7f7283f57f228aa4d016742ea165c03b84";
}

const std::vector<AscendApiName>& ascendReleasedApi() {
    // tile-ai/tilelang-ascend, branch ascendc_pto @ 95acbd7 (the PyPI 0.1.4 wheel's code).
    static const std::vector<AscendApiName> names = {
        {"tilelang.jit", "tilelang/jit/__init__.py:250 (def jit)"},
        {"target=\"ascendc\"", "tilelang/engine/lower.py:162 (device_codegen accepts the models "
                               "ascendc, auto, pto; testing/.../test_tilelang_ascend_language_"
                               "gm_to_l1.py:88 TARGET = \"ascendc\")"},
        {"T.prim_func", "tilelang/language/tir/entry.py:12, exported at __init__.py:16"},
        {"T.Tensor", "tilelang/language/proxy.py:224 (Tensor = TensorProxy())"},
        {"T.Kernel", "tilelang/language/kernel.py:215 (is_npu=True)"},
        {"T.Scope", "tilelang/language/warpgroup.py:74, exported at __init__.py:42"},
        {"T.alloc_L1", "tilelang/language/allocate.py:139"},
        {"T.alloc_L0A", "tilelang/language/allocate.py:143 (scope wmma.matrix_a)"},
        {"T.alloc_L0B", "tilelang/language/allocate.py:147 (scope wmma.matrix_b)"},
        {"T.alloc_L0C", "tilelang/language/allocate.py:151 (scope wmma.accumulator)"},
        {"T.copy", "tilelang/language/copy.py:196 npu_copy_v2, exported as copy at "
                   "__init__.py:53; lowered at src/op/ascend.cc:183-198 (global->L1, L1->L0A, "
                   "L1->L0B, L0C->global)"},
        {"T.barrier_all", "tilelang/language/ascend.py:200"},
        {"T.mma", "tilelang/language/customize.py:115 npu_gemm, exported as mma at "
                  "__init__.py:75"},
    };
    return names;
}

const std::vector<AscendApiName>& ascendReleasedMissingApi() {
    static const std::vector<AscendApiName> names = {
        {"T.clear", "tilelang/language/__init__.py:56 comments out `from .fill import fill, "
                    "clear`"},
        {"T.fill", "tilelang/language/__init__.py:56 (same line)"},
        {"target='npuir'", "tilelang/engine/lower.py:168 raises ValueError for models other "
                           "than ascendc/auto/pto"},
        {"T.load_nd2nz", "npuir branch only"},
        {"T.store_fixpipe", "npuir branch only"},
    };
    return names;
}

} // namespace ts
