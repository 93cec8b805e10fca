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

extern "C" __global__ void col_reduce_sum_kernel(const float* __restrict__ A, float* __restrict__ S);
extern "C" __global__ void __launch_bounds__(128, 1) col_reduce_sum_kernel(const float* __restrict__ A, float* __restrict__ S) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* a_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* workspace = ((void*)((char*)buf_dyn_shmem + 8192));
  float acc[4];
  float a_f[16];
  float part[4];
  float broadcast_var = 0x0p+0f/*0.000000e+00*/;
  *(float4*)(acc + 0) = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
  for (int ko = 0; ko < 16; ++ko) {
    __syncthreads();
    #pragma unroll
    for (int i = 0; i < 4; ++i) {
      *(float4*)(((float*)a_s) + ((i * 512) + (((int)threadIdx.x) * 4))) = *(float4*)(A + (((((ko * 65536) + (i * 16384)) + ((((int)threadIdx.x) >> 3) * 1024)) + (((int)blockIdx.x) * 32)) + ((((int)threadIdx.x) & 7) * 4)));
    }
    #pragma unroll
    for (int i_1 = 0; i_1 < 4; ++i_1) {
      *(float4*)(a_f + (i_1 * 4)) = *(float4*)(((float*)a_s) + ((i_1 * 512) + (((int)threadIdx.x) * 4)));
    }
    #pragma unroll
    for (int i_2 = 0; i_2 < 4; ++i_2) {
      part[i_2] = 0x0p+0f/*0.000000e+00*/;
      #pragma unroll
      for (int rv = 0; rv < 4; ++rv) {
        part[i_2] = (part[i_2] + a_f[((rv * 4) + i_2)]);
      }
      __syncthreads();
      part[i_2] = tl::AllReduce<tl::SumOp, 128, 8, 0, tl::NamedBarrier<128>>::run(part[i_2], (&(((float*)workspace)[0])));
    }
    float4 __1;
      float4 v_ = *(float4*)(acc + 0);
      float4 v__1 = *(float4*)(part + 0);
      __1.x = (v_.x+v__1.x);
      __1.y = (v_.y+v__1.y);
      __1.z = (v_.z+v__1.z);
      __1.w = (v_.w+v__1.w);
    *(float4*)(acc + 0) = __1;
  }
  if ((((int)threadIdx.x) >> 3) == 0) {
    *(float4*)(S + ((((int)blockIdx.x) * 32) + ((((int)threadIdx.x) & 7) * 4))) = *(float4*)(acc + 0);
  }
}

