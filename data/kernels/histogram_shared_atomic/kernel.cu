#if defined(_MSC_VER) && !defined(__clang__) && _MSC_VER < 1940
#define _tl_orig_alignas alignas
#define alignas(N) _tl_orig_alignas((N) <= 64 ? (N) : 64)
#include <cuda.h>
#undef alignas
#define alignas _tl_orig_alignas
#endif
#include <tl_templates/cuda/atomic.h>
#include <tl_templates/cuda/reduce.h>
#include <tl_templates/cuda/scan.h>
#include <tl_templates/cuda/ldsm.h>
#include <tl_templates/cuda/threadblock_swizzle.h>
#include <tl_templates/cuda/debug.h>
#ifdef ENABLE_BF16
#include <tl_templates/cuda/cuda_bf16_fallbacks.cuh>
#endif

extern "C" __global__ void histogram_shared_atomic_kernel(int* __restrict__ H, const int* __restrict__ X);
extern "C" __global__ void __launch_bounds__(256, 1) histogram_shared_atomic_kernel(int* __restrict__ H, const int* __restrict__ X) {
  extern __shared__ __align__(1024) int hist[];
  hist[((int)threadIdx.x)] = 0;
  __syncthreads();
  #pragma unroll
  for (int i = 0; i < 16; ++i) {
    AtomicAdd((&(hist[(X[(((((int)blockIdx.x) * 4096) + (i * 256)) + ((int)threadIdx.x))] & 255)])), 1);
  }
  __syncthreads();
  AtomicAdd((&(H[((int)threadIdx.x)])), hist[((int)threadIdx.x)]);
}

