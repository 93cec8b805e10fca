#if defined(_MSC_VER) && !defined(__clang__) && _MSC_VER < 1940
#define _tl_orig_alignas alignas
#define alignas(N) _tl_orig_alignas((N) <= 64 ? (N) : 64)
#include <cuda.h>
#undef alignas
#define alignas _tl_orig_alignas
#endif
#include <math_constants.h>
#include <tl_templates/cuda/reduce.h>
#include <tl_templates/cuda/scan.h>
#include <tl_templates/cuda/ldsm.h>
#include <tl_templates/cuda/threadblock_swizzle.h>
#include <tl_templates/cuda/debug.h>
#ifdef ENABLE_BF16
#include <tl_templates/cuda/cuda_bf16_fallbacks.cuh>
#endif

extern "C" __global__ void softmax_rows_kernel(const float* __restrict__ X, float* __restrict__ Y);
extern "C" __global__ void __launch_bounds__(128, 1) softmax_rows_kernel(const float* __restrict__ X, float* __restrict__ Y) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* x_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* y_s = ((void*)((char*)buf_dyn_shmem + 0));
  float x_f[16];
  float row_max[4];
  float row_sum[4];
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    *(float4*)(((float*)x_s) + ((i * 512) + (((int)threadIdx.x) * 4))) = *(float4*)(X + (((((int)blockIdx.x) * 2048) + (i * 512)) + (((int)threadIdx.x) * 4)));
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 4; ++i_1) {
    *(float4*)(x_f + (i_1 * 4)) = *(float4*)(((float*)x_s) + ((i_1 * 512) + (((int)threadIdx.x) * 4)));
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    row_max[i_2] = -CUDART_INF_F;
    #pragma unroll
    for (int rv = 0; rv < 4; ++rv) {
      row_max[i_2] = max(row_max[i_2], x_f[((i_2 * 4) + rv)]);
    }
    row_max[i_2] = tl::AllReduce<tl::MaxOp, 16, 1, 0, tl::NamedBarrier<128>>::run(row_max[i_2]);
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 4; ++i_3) {
    float broadcast_var = 0x1.7154764ee6c2fp+0f/*1.442695e+00*/;
    float4 __1;
    float4 __2;
      float4 __3;
        float4 v_ = *(float4*)(x_f + (i_3 * 4));
        float4 v__1 = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
        __3.x = (v_.x*v__1.x);
        __3.y = (v_.y*v__1.y);
        __3.z = (v_.z*v__1.z);
        __3.w = (v_.w*v__1.w);
      float4 v__2 = make_float4((row_max[i_3] * 0x1.7154764ee6c2fp+0f/*1.442695e+00*/), (row_max[i_3] * 0x1.7154764ee6c2fp+0f/*1.442695e+00*/), (row_max[i_3] * 0x1.7154764ee6c2fp+0f/*1.442695e+00*/), (row_max[i_3] * 0x1.7154764ee6c2fp+0f/*1.442695e+00*/));
      __2.x = (__3.x-v__2.x);
      __2.y = (__3.y-v__2.y);
      __2.z = (__3.z-v__2.z);
      __2.w = (__3.w-v__2.w);
    __1.x = exp2f(__2.x);
    __1.y = exp2f(__2.y);
    __1.z = exp2f(__2.z);
    __1.w = exp2f(__2.w);
    *(float4*)(x_f + (i_3 * 4)) = __1;
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 4; ++i_4) {
    row_sum[i_4] = 0x0p+0f/*0.000000e+00*/;
    #pragma unroll
    for (int rv_1 = 0; rv_1 < 4; ++rv_1) {
      row_sum[i_4] = (row_sum[i_4] + x_f[((i_4 * 4) + rv_1)]);
    }
    row_sum[i_4] = tl::AllReduce<tl::SumOp, 16, 1, 0, tl::NamedBarrier<128>>::run(row_sum[i_4]);
  }
  #pragma unroll
  for (int i_5 = 0; i_5 < 4; ++i_5) {
    float4 __4;
      float4 v__3 = *(float4*)(x_f + (i_5 * 4));
      float4 v__4 = make_float4(row_sum[i_5], row_sum[i_5], row_sum[i_5], row_sum[i_5]);
      __4.x = (v__3.x/v__4.x);
      __4.y = (v__3.y/v__4.y);
      __4.z = (v__3.z/v__4.z);
      __4.w = (v__3.w/v__4.w);
    *(float4*)(x_f + (i_5 * 4)) = __4;
  }
  __syncthreads();
  #pragma unroll
  for (int i_6 = 0; i_6 < 4; ++i_6) {
    *(float4*)(((float*)y_s) + ((i_6 * 512) + (((int)threadIdx.x) * 4))) = *(float4*)(x_f + (i_6 * 4));
  }
  #pragma unroll
  for (int i_7 = 0; i_7 < 4; ++i_7) {
    *(float4*)(Y + (((((int)blockIdx.x) * 2048) + (i_7 * 512)) + (((int)threadIdx.x) * 4))) = *(float4*)(((float*)y_s) + ((i_7 * 512) + (((int)threadIdx.x) * 4)));
  }
}

