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

extern "C" __global__ void copy_swizzled_int8_kernel(const signed char* __restrict__ X, signed char* __restrict__ Y);
extern "C" __global__ void __launch_bounds__(128, 1) copy_swizzled_int8_kernel(const signed char* __restrict__ X, signed char* __restrict__ Y) {
  extern __shared__ __align__(1024) signed char x_s[];
  signed char y_f[64];
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    *(int4*)(x_s + (((((i * 2048) + ((((int)threadIdx.x) >> 3) * 128)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 64)) + (((((((int)threadIdx.x) & 31) >> 4) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 15) >> 3) + (((int)threadIdx.x) & 1)) & 1) * 16))) = *(int4*)(X + (((((((int)blockIdx.y) * 65536) + (i * 16384)) + ((((int)threadIdx.x) >> 3) * 1024)) + (((int)blockIdx.x) * 128)) + ((((int)threadIdx.x) & 7) * 16)));
  }
  __syncthreads();
  #pragma unroll
  for (int i_1 = 0; i_1 < 4; ++i_1) {
    signed char broadcast_var = (signed char)3;
    int4 __1;
      int4 v_ = *(int4*)(x_s + (((((i_1 * 2048) + ((((int)threadIdx.x) >> 3) * 128)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 64)) + (((((((int)threadIdx.x) & 31) >> 4) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 15) >> 3) + (((int)threadIdx.x) & 1)) & 1) * 16)));
      int4 v__1 = tl::broadcast<int4>(broadcast_var);
      __1.x=((((char)(v_.x >> 0))+((char)(v__1.x >> 0))) << 0);
      __1.x=__1.x & ~(0x000000ff << 8) |((((char)(v_.x >> 8))+((char)(v__1.x >> 8))) << 8);
      __1.x=__1.x & ~(0x000000ff << 16) |((((char)(v_.x >> 16))+((char)(v__1.x >> 16))) << 16);
      __1.x=__1.x & ~(0x000000ff << 24) |((((char)(v_.x >> 24))+((char)(v__1.x >> 24))) << 24);
      __1.y=((((char)(v_.y >> 0))+((char)(v__1.y >> 0))) << 0);
      __1.y=__1.y & ~(0x000000ff << 8) |((((char)(v_.y >> 8))+((char)(v__1.y >> 8))) << 8);
      __1.y=__1.y & ~(0x000000ff << 16) |((((char)(v_.y >> 16))+((char)(v__1.y >> 16))) << 16);
      __1.y=__1.y & ~(0x000000ff << 24) |((((char)(v_.y >> 24))+((char)(v__1.y >> 24))) << 24);
      __1.z=((((char)(v_.z >> 0))+((char)(v__1.z >> 0))) << 0);
      __1.z=__1.z & ~(0x000000ff << 8) |((((char)(v_.z >> 8))+((char)(v__1.z >> 8))) << 8);
      __1.z=__1.z & ~(0x000000ff << 16) |((((char)(v_.z >> 16))+((char)(v__1.z >> 16))) << 16);
      __1.z=__1.z & ~(0x000000ff << 24) |((((char)(v_.z >> 24))+((char)(v__1.z >> 24))) << 24);
      __1.w=((((char)(v_.w >> 0))+((char)(v__1.w >> 0))) << 0);
      __1.w=__1.w & ~(0x000000ff << 8) |((((char)(v_.w >> 8))+((char)(v__1.w >> 8))) << 8);
      __1.w=__1.w & ~(0x000000ff << 16) |((((char)(v_.w >> 16))+((char)(v__1.w >> 16))) << 16);
      __1.w=__1.w & ~(0x000000ff << 24) |((((char)(v_.w >> 24))+((char)(v__1.w >> 24))) << 24);
    *(int4*)(y_f + (i_1 * 16)) = __1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    *(int4*)(Y + (((((((int)blockIdx.y) * 65536) + (i_2 * 16384)) + ((((int)threadIdx.x) >> 3) * 1024)) + (((int)blockIdx.x) * 128)) + ((((int)threadIdx.x) & 7) * 16))) = *(int4*)(y_f + (i_2 * 16));
  }
}

