#if defined(_MSC_VER) && !defined(__clang__) && _MSC_VER < 1940
#define _tl_orig_alignas alignas
#define alignas(N) _tl_orig_alignas((N) <= 64 ? (N) : 64)
#include <cuda.h>
#undef alignas
#define alignas _tl_orig_alignas
#endif
#include <tl_templates/cuda/reduce.h>
#include <tl_templates/cuda/scan.h>
#include <tl_templates/cuda/ldsm.h>
#include <tl_templates/cuda/threadblock_swizzle.h>
#include <tl_templates/cuda/debug.h>
#ifdef ENABLE_BF16
#include <tl_templates/cuda/cuda_bf16_fallbacks.cuh>
#endif

extern "C" __global__ void transpose_fp16_unpadded_kernel(const half_t* __restrict__ A, half_t* __restrict__ B);
extern "C" __global__ void __launch_bounds__(128, 1) transpose_fp16_unpadded_kernel(const half_t* __restrict__ A, half_t* __restrict__ B) {
  extern __shared__ __align__(1024) half_t tile[];
  *(uint4*)(tile + (((int)threadIdx.x) * 8)) = *(uint4*)(A + ((((((int)blockIdx.y) * 32768) + ((((int)threadIdx.x) >> 2) * 1024)) + (((int)blockIdx.x) * 32)) + ((((int)threadIdx.x) & 3) * 8)));
  __syncthreads();
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    B[(((((((int)blockIdx.x) * 32768) + (i * 4096)) + ((((int)threadIdx.x) >> 5) * 1024)) + (((int)blockIdx.y) * 32)) + (((int)threadIdx.x) & 31))] = tile[((((((int)threadIdx.x) & 31) * 32) + (i * 4)) + (((int)threadIdx.x) >> 5))];
  }
}

