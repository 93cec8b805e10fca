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

extern "C" __global__ void add_shared_fp32_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C);
extern "C" __global__ void __launch_bounds__(128, 1) add_shared_fp32_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* a_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* b_s = ((void*)((char*)buf_dyn_shmem + 16384));
  void* c_s = ((void*)((char*)buf_dyn_shmem + 32768));
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    *(float4*)(((float*)a_s) + ((i * 512) + (((int)threadIdx.x) * 4))) = *(float4*)(A + (((((((int)blockIdx.y) * 65536) + (i * 8192)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.x) * 64)) + ((((int)threadIdx.x) & 15) * 4)));
    *(float4*)(((float*)b_s) + ((i * 512) + (((int)threadIdx.x) * 4))) = *(float4*)(B + (((((((int)blockIdx.y) * 65536) + (i * 8192)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.x) * 64)) + ((((int)threadIdx.x) & 15) * 4)));
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 8; ++i_1) {
    float4 __1;
      float4 v_ = *(float4*)(((float*)a_s) + ((i_1 * 512) + (((int)threadIdx.x) * 4)));
      float4 v__1 = *(float4*)(((float*)b_s) + ((i_1 * 512) + (((int)threadIdx.x) * 4)));
      __1.x = (v_.x+v__1.x);
      __1.y = (v_.y+v__1.y);
      __1.z = (v_.z+v__1.z);
      __1.w = (v_.w+v__1.w);
    *(float4*)(((float*)c_s) + ((i_1 * 512) + (((int)threadIdx.x) * 4))) = __1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 8; ++i_2) {
    *(float4*)(C + (((((((int)blockIdx.y) * 65536) + (i_2 * 8192)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.x) * 64)) + ((((int)threadIdx.x) & 15) * 4))) = *(float4*)(((float*)c_s) + ((i_2 * 512) + (((int)threadIdx.x) * 4)));
  }
}

