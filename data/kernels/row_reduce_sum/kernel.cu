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

extern "C" __global__ void row_reduce_sum_kernel(const float* __restrict__ A, float* __restrict__ S);
extern "C" __global__ void __launch_bounds__(256, 1) row_reduce_sum_kernel(const float* __restrict__ A, float* __restrict__ S) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* a_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* workspace = ((void*)((char*)buf_dyn_shmem + 0));
  float a_f[32];
  float sums_clear[8];
  float sums[1];
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    *(float4*)(((float*)a_s) + ((i * 1024) + (((int)threadIdx.x) * 4))) = *(float4*)(A + (((((int)blockIdx.x) * 8192) + (i * 1024)) + (((int)threadIdx.x) * 4)));
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 8; ++i_1) {
    float broadcast_var = 0x1p-1f/*5.000000e-01*/;
    float4 __1;
      float4 v_ = *(float4*)(((float*)a_s) + ((i_1 * 1024) + (((int)threadIdx.x) * 4)));
      float4 v__1 = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
      __1.x = (v_.x*v__1.x);
      __1.y = (v_.y*v__1.y);
      __1.z = (v_.z*v__1.z);
      __1.w = (v_.w*v__1.w);
    *(float4*)(a_f + (i_1 * 4)) = __1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 8; ++i_2) {
    sums_clear[i_2] = 0x0p+0f/*0.000000e+00*/;
    #pragma unroll
    for (int rv = 0; rv < 4; ++rv) {
      sums_clear[i_2] = (sums_clear[i_2] + a_f[((i_2 * 4) + rv)]);
    }
    __syncthreads();
    sums_clear[i_2] = tl::AllReduce<tl::SumOp, 256, 1, 0, tl::NamedBarrier<256>>::run(sums_clear[i_2], (&(((float*)workspace)[0])));
    if ((((int)threadIdx.x) & 7) == i_2) {
      sums[0] = sums_clear[i_2];
    }
  }
  if ((((int)threadIdx.x) >> 3) == 0) {
    S[((((int)blockIdx.x) * 8) + (((int)threadIdx.x) & 7))] = sums[0];
  }
}

