#if defined(_MSC_VER) && !defined(__clang__) && _MSC_VER < 1940
#define _tl_orig_alignas alignas
#define alignas(N) _tl_orig_alignas((N) <= 64 ? (N) : 64)
#include <cuda.h>
#undef alignas
#define alignas _tl_orig_alignas
#endif
#include <tl_templates/cuda/instruction/mma.h>
#include <tl_templates/cuda/copy.h>
#include <math_constants.h>
#include <tl_templates/cuda/reduce.h>
#include <tl_templates/cuda/scan.h>
#include <tl_templates/cuda/ldsm.h>
#include <tl_templates/cuda/threadblock_swizzle.h>
#include <tl_templates/cuda/debug.h>
#ifdef ENABLE_BF16
#include <tl_templates/cuda/cuda_bf16_fallbacks.cuh>
#endif

extern "C" __global__ void flash_attn_fwd_d128_kernel(const half_t* __restrict__ K, half_t* __restrict__ O, const half_t* __restrict__ Q, const half_t* __restrict__ V);
extern "C" __global__ void __launch_bounds__(256, 1) flash_attn_fwd_d128_kernel(const half_t* __restrict__ K, half_t* __restrict__ O, const half_t* __restrict__ Q, const half_t* __restrict__ V) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* o_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* q_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* k_s = ((void*)((char*)buf_dyn_shmem + 32768));
  void* v_s = ((void*)((char*)buf_dyn_shmem + 65536));
  float o_f[64];
  float denom[2];
  float m_new[2];
  float s_f[32];
  float m_old[2];
  float alpha[2];
  float row_sum[2];
  half_t p_f[32];
  float m_new_clear[2];
  float m_new_clear_1[2];
  float m_new_clear_2[2];
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    *(uint4*)(((half_t*)q_s) + ((((((((((int)threadIdx.x) & 15) >> 3) * 8192) + (i * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))) = *(uint4*)(Q + (((((((int)blockIdx.x) * 131072) + (i * 16384)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8)));
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 16; ++i_1) {
    float broadcast_var = 0x0p+0f/*0.000000e+00*/;
    *(float4*)(o_f + (i_1 * 4)) = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
  }
  float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
  *(float2*)(denom + 0) = make_float2(broadcast_var_1, broadcast_var_1);
  float broadcast_var_2 = -CUDART_INF_F;
  *(float2*)(m_new + 0) = make_float2(broadcast_var_2, broadcast_var_2);
  __syncthreads();
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    tl::cp_async_gs<16>((&(((half_t*)k_s)[((((((((((int)threadIdx.x) & 15) >> 3) * 4096) + (i_2 * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(K[((((i_2 * 16384) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8))])));
  }
  tl::cp_async_commit();
  #pragma unroll
  for (int i_3 = 0; i_3 < 4; ++i_3) {
    tl::cp_async_gs<16>((&(((half_t*)v_s)[((((((((((int)threadIdx.x) & 15) >> 3) * 4096) + (i_3 * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(V[((((i_3 * 16384) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8))])));
  }
  tl::cp_async_commit();
  #pragma unroll
  for (int i_4 = 0; i_4 < 4; ++i_4) {
    tl::cp_async_gs<16>((&(((half_t*)k_s)[(((((((((((int)threadIdx.x) & 15) >> 3) * 4096) + (i_4 * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8)) + 8192)])), (&(K[(((((i_4 * 16384) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8)) + 65536)])));
  }
  tl::cp_async_commit();
  #pragma unroll
  for (int i_5 = 0; i_5 < 4; ++i_5) {
    tl::cp_async_gs<16>((&(((half_t*)v_s)[(((((((((((int)threadIdx.x) & 15) >> 3) * 4096) + (i_5 * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8)) + 8192)])), (&(V[(((((i_5 * 16384) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8)) + 65536)])));
  }
  tl::cp_async_commit();
  for (int kb = 0; kb < 14; ++kb) {
    #pragma unroll
    for (int i_6 = 0; i_6 < 8; ++i_6) {
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      *(float4*)(s_f + (i_6 * 4)) = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    tl::cp_async_wait<3>();
    __syncthreads();
    {
      half_t A_local[8];
      half_t B_local[32];
      for (int ki = 0; ki < 8; ++ki) {
        tl::ptx_ldmatrix_x4((&(((half_t*)q_s)[(((((((ki >> 2) * 8192) + ((((int)threadIdx.x) >> 5) * 1024)) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((ki & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (ki & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(A_local[0])));
        #pragma unroll
        for (int i_7 = 0; i_7 < 4; ++i_7) {
          tl::ptx_ldmatrix_x4((&(((half_t*)k_s)[(((((((((kb & 1) * 8192) + ((ki >> 2) * 4096)) + (i_7 * 1024)) + (((((int)threadIdx.x) & 31) >> 4) * 512)) + ((((int)threadIdx.x) & 7) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((ki & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (ki & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 15) >> 3) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(B_local[(i_7 * 8)])));
        }
        for (int j = 0; j < 4; ++j) {
          tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(s_f + (j * 8)), reinterpret_cast<const unsigned*>(A_local + 0), reinterpret_cast<const unsigned*>(B_local + (j * 8)));
          tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(s_f + ((j * 8) + 4)), reinterpret_cast<const unsigned*>(A_local + 0), reinterpret_cast<const unsigned*>(B_local + ((j * 8) + 4)));
        }
      }
    }
    __syncthreads();
    #pragma unroll
    for (int i_8 = 0; i_8 < 4; ++i_8) {
      tl::cp_async_gs<16>((&(((half_t*)k_s)[((((((((kb & 1) * 8192) + (((((int)threadIdx.x) & 15) >> 3) * 4096)) + (i_8 * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(K[((((((kb * 65536) + (i_8 * 16384)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8)) + 131072)])));
    }
    tl::cp_async_commit();
    *(float2*)(m_old + 0) = *(float2*)(m_new + 0);
    #pragma unroll
    for (int i_9 = 0; i_9 < 2; ++i_9) {
      m_new_clear[i_9] = -CUDART_INF_F;
      #pragma unroll
      for (int rv = 0; rv < 16; ++rv) {
        m_new_clear[i_9] = max(m_new_clear[i_9], s_f[((((rv & 7) * 4) + (i_9 * 2)) + (rv >> 3))]);
      }
      m_new_clear[i_9] = tl::AllReduce<tl::MaxOp, 4, 1, 0, tl::NamedBarrier<256>>::run(m_new_clear[i_9]);
      m_new[i_9] = max(m_new[i_9], m_new_clear[i_9]);
    }
    float broadcast_var_4 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
    float broadcast_var_5 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
    float2 __1;
    float2 __2;
      float2 __3;
        float2 v_ = *(float2*)(m_old + 0);
        float2 v__1 = make_float2(broadcast_var_4, broadcast_var_4);
        __3.x = (v_.x*v__1.x);
        __3.y = (v_.y*v__1.y);
      float2 __4;
        float2 v__2 = *(float2*)(m_new + 0);
        float2 v__3 = make_float2(broadcast_var_5, broadcast_var_5);
        __4.x = (v__2.x*v__3.x);
        __4.y = (v__2.y*v__3.y);
      __2.x = (__3.x-__4.x);
      __2.y = (__3.y-__4.y);
    __1.x = exp2f(__2.x);
    __1.y = exp2f(__2.y);
    *(float2*)(alpha + 0) = __1;
    #pragma unroll
    for (int i_10 = 0; i_10 < 16; ++i_10) {
      float broadcast_var_6 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
      float2 __5;
      float2 __6;
        float2 __7;
          float2 v__4 = *(float2*)(s_f + (i_10 * 2));
          float2 v__5 = make_float2(broadcast_var_6, broadcast_var_6);
          __7.x = (v__4.x*v__5.x);
          __7.y = (v__4.y*v__5.y);
        float2 v__6 = make_float2((m_new[(i_10 & 1)] * 0x1.0527dbd5cafffp-3f/*1.275174e-01*/), (m_new[(i_10 & 1)] * 0x1.0527dbd5cafffp-3f/*1.275174e-01*/));
        __6.x = (__7.x-v__6.x);
        __6.y = (__7.y-v__6.y);
      __5.x = exp2f(__6.x);
      __5.y = exp2f(__6.y);
      *(float2*)(s_f + (i_10 * 2)) = __5;
    }
    #pragma unroll
    for (int i_11 = 0; i_11 < 2; ++i_11) {
      row_sum[i_11] = 0x0p+0f/*0.000000e+00*/;
      #pragma unroll
      for (int rv_1 = 0; rv_1 < 16; ++rv_1) {
        row_sum[i_11] = (row_sum[i_11] + s_f[((((rv_1 & 7) * 4) + (i_11 * 2)) + (rv_1 >> 3))]);
      }
      row_sum[i_11] = tl::AllReduce<tl::SumOp, 4, 1, 0, tl::NamedBarrier<256>>::run(row_sum[i_11]);
    }
    float2 __8;
      float2 __9;
        float2 v__7 = *(float2*)(denom + 0);
        float2 v__8 = *(float2*)(alpha + 0);
        __9.x = (v__7.x*v__8.x);
        __9.y = (v__7.y*v__8.y);
      float2 v__9 = *(float2*)(row_sum + 0);
      __8.x = (__9.x+v__9.x);
      __8.y = (__9.y+v__9.y);
    *(float2*)(denom + 0) = __8;
    #pragma unroll
    for (int i_12 = 0; i_12 < 8; ++i_12) {
      uint2 __10;
      float4 v__10 = *(float4*)(s_f + (i_12 * 4));
      ((half2*)(&__10))[0] = __float22half2_rn(((float2*)(&v__10))[0]);
      ((half2*)(&__10))[1] = __float22half2_rn(((float2*)(&v__10))[1]);
      *(uint2*)(p_f + (i_12 * 4)) = __10;
    }
    #pragma unroll
    for (int i_13 = 0; i_13 < 32; ++i_13) {
      float2 __11;
        float2 v__11 = *(float2*)(o_f + (i_13 * 2));
        float2 v__12 = make_float2(alpha[(i_13 & 1)], alpha[(i_13 & 1)]);
        __11.x = (v__11.x*v__12.x);
        __11.y = (v__11.y*v__12.y);
      *(float2*)(o_f + (i_13 * 2)) = __11;
    }
    tl::cp_async_wait<3>();
    __syncthreads();
    {
      half_t B_local_1[64];
      for (int ki_1 = 0; ki_1 < 4; ++ki_1) {
        #pragma unroll
        for (int i_14 = 0; i_14 < 8; ++i_14) {
          tl::ptx_ldmatrix_x4_trans((&(((half_t*)v_s)[((((((((kb & 1) * 8192) + ((i_14 >> 2) * 4096)) + (ki_1 * 1024)) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((i_14 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (i_14 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(B_local_1[(i_14 * 8)])));
        }
        for (int j_1 = 0; j_1 < 8; ++j_1) {
          tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(o_f + (j_1 * 8)), reinterpret_cast<const unsigned*>(p_f + (ki_1 * 8)), reinterpret_cast<const unsigned*>(B_local_1 + (j_1 * 8)));
          tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(o_f + ((j_1 * 8) + 4)), reinterpret_cast<const unsigned*>(p_f + (ki_1 * 8)), reinterpret_cast<const unsigned*>(B_local_1 + ((j_1 * 8) + 4)));
        }
      }
    }
    __syncthreads();
    #pragma unroll
    for (int i_15 = 0; i_15 < 4; ++i_15) {
      tl::cp_async_gs<16>((&(((half_t*)v_s)[((((((((kb & 1) * 8192) + (((((int)threadIdx.x) & 15) >> 3) * 4096)) + (i_15 * 1024)) + ((((int)threadIdx.x) >> 4) * 64)) + (((((((int)threadIdx.x) & 127) >> 6) + ((((int)threadIdx.x) & 7) >> 2)) & 1) * 32)) + (((((((int)threadIdx.x) & 63) >> 5) + ((((int)threadIdx.x) & 3) >> 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(V[((((((kb * 65536) + (i_15 * 16384)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8)) + 131072)])));
    }
    tl::cp_async_commit();
  }
  #pragma unroll
  for (int i_16 = 0; i_16 < 8; ++i_16) {
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    *(float4*)(s_f + (i_16 * 4)) = make_float4(broadcast_var_7, broadcast_var_7, broadcast_var_7, broadcast_var_7);
  }
  tl::cp_async_wait<3>();
  __syncthreads();
  {
    half_t A_local_1[8];
    half_t B_local_2[32];
    for (int ki_2 = 0; ki_2 < 8; ++ki_2) {
      tl::ptx_ldmatrix_x4((&(((half_t*)q_s)[(((((((ki_2 >> 2) * 8192) + ((((int)threadIdx.x) >> 5) * 1024)) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((ki_2 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (ki_2 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(A_local_1[0])));
      #pragma unroll
      for (int i_17 = 0; i_17 < 4; ++i_17) {
        tl::ptx_ldmatrix_x4((&(((half_t*)k_s)[((((((((ki_2 >> 2) * 4096) + (i_17 * 1024)) + (((((int)threadIdx.x) & 31) >> 4) * 512)) + ((((int)threadIdx.x) & 7) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((ki_2 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (ki_2 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 15) >> 3) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(B_local_2[(i_17 * 8)])));
      }
      for (int j_2 = 0; j_2 < 4; ++j_2) {
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(s_f + (j_2 * 8)), reinterpret_cast<const unsigned*>(A_local_1 + 0), reinterpret_cast<const unsigned*>(B_local_2 + (j_2 * 8)));
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(s_f + ((j_2 * 8) + 4)), reinterpret_cast<const unsigned*>(A_local_1 + 0), reinterpret_cast<const unsigned*>(B_local_2 + ((j_2 * 8) + 4)));
      }
    }
  }
  *(float2*)(m_old + 0) = *(float2*)(m_new + 0);
  #pragma unroll
  for (int i_18 = 0; i_18 < 2; ++i_18) {
    m_new_clear_1[i_18] = -CUDART_INF_F;
    #pragma unroll
    for (int rv_2 = 0; rv_2 < 16; ++rv_2) {
      m_new_clear_1[i_18] = max(m_new_clear_1[i_18], s_f[((((rv_2 & 7) * 4) + (i_18 * 2)) + (rv_2 >> 3))]);
    }
    m_new_clear_1[i_18] = tl::AllReduce<tl::MaxOp, 4, 1, 0, tl::NamedBarrier<256>>::run(m_new_clear_1[i_18]);
    m_new[i_18] = max(m_new[i_18], m_new_clear_1[i_18]);
  }
  float broadcast_var_8 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
  float broadcast_var_9 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
  float2 __12;
  float2 __13;
    float2 __14;
      float2 v__13 = *(float2*)(m_old + 0);
      float2 v__14 = make_float2(broadcast_var_8, broadcast_var_8);
      __14.x = (v__13.x*v__14.x);
      __14.y = (v__13.y*v__14.y);
    float2 __15;
      float2 v__15 = *(float2*)(m_new + 0);
      float2 v__16 = make_float2(broadcast_var_9, broadcast_var_9);
      __15.x = (v__15.x*v__16.x);
      __15.y = (v__15.y*v__16.y);
    __13.x = (__14.x-__15.x);
    __13.y = (__14.y-__15.y);
  __12.x = exp2f(__13.x);
  __12.y = exp2f(__13.y);
  *(float2*)(alpha + 0) = __12;
  #pragma unroll
  for (int i_19 = 0; i_19 < 16; ++i_19) {
    float broadcast_var_10 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
    float2 __16;
    float2 __17;
      float2 __18;
        float2 v__17 = *(float2*)(s_f + (i_19 * 2));
        float2 v__18 = make_float2(broadcast_var_10, broadcast_var_10);
        __18.x = (v__17.x*v__18.x);
        __18.y = (v__17.y*v__18.y);
      float2 v__19 = make_float2((m_new[(i_19 & 1)] * 0x1.0527dbd5cafffp-3f/*1.275174e-01*/), (m_new[(i_19 & 1)] * 0x1.0527dbd5cafffp-3f/*1.275174e-01*/));
      __17.x = (__18.x-v__19.x);
      __17.y = (__18.y-v__19.y);
    __16.x = exp2f(__17.x);
    __16.y = exp2f(__17.y);
    *(float2*)(s_f + (i_19 * 2)) = __16;
  }
  #pragma unroll
  for (int i_20 = 0; i_20 < 2; ++i_20) {
    row_sum[i_20] = 0x0p+0f/*0.000000e+00*/;
    #pragma unroll
    for (int rv_3 = 0; rv_3 < 16; ++rv_3) {
      row_sum[i_20] = (row_sum[i_20] + s_f[((((rv_3 & 7) * 4) + (i_20 * 2)) + (rv_3 >> 3))]);
    }
    row_sum[i_20] = tl::AllReduce<tl::SumOp, 4, 1, 0, tl::NamedBarrier<256>>::run(row_sum[i_20]);
  }
  float2 __19;
    float2 __20;
      float2 v__20 = *(float2*)(denom + 0);
      float2 v__21 = *(float2*)(alpha + 0);
      __20.x = (v__20.x*v__21.x);
      __20.y = (v__20.y*v__21.y);
    float2 v__22 = *(float2*)(row_sum + 0);
    __19.x = (__20.x+v__22.x);
    __19.y = (__20.y+v__22.y);
  *(float2*)(denom + 0) = __19;
  #pragma unroll
  for (int i_21 = 0; i_21 < 8; ++i_21) {
    uint2 __21;
    float4 v__23 = *(float4*)(s_f + (i_21 * 4));
    ((half2*)(&__21))[0] = __float22half2_rn(((float2*)(&v__23))[0]);
    ((half2*)(&__21))[1] = __float22half2_rn(((float2*)(&v__23))[1]);
    *(uint2*)(p_f + (i_21 * 4)) = __21;
  }
  #pragma unroll
  for (int i_22 = 0; i_22 < 32; ++i_22) {
    float2 __22;
      float2 v__24 = *(float2*)(o_f + (i_22 * 2));
      float2 v__25 = make_float2(alpha[(i_22 & 1)], alpha[(i_22 & 1)]);
      __22.x = (v__24.x*v__25.x);
      __22.y = (v__24.y*v__25.y);
    *(float2*)(o_f + (i_22 * 2)) = __22;
  }
  tl::cp_async_wait<2>();
  __syncthreads();
  {
    half_t B_local_3[64];
    for (int ki_3 = 0; ki_3 < 4; ++ki_3) {
      #pragma unroll
      for (int i_23 = 0; i_23 < 8; ++i_23) {
        tl::ptx_ldmatrix_x4_trans((&(((half_t*)v_s)[(((((((i_23 >> 2) * 4096) + (ki_3 * 1024)) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((i_23 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (i_23 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(B_local_3[(i_23 * 8)])));
      }
      for (int j_3 = 0; j_3 < 8; ++j_3) {
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(o_f + (j_3 * 8)), reinterpret_cast<const unsigned*>(p_f + (ki_3 * 8)), reinterpret_cast<const unsigned*>(B_local_3 + (j_3 * 8)));
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(o_f + ((j_3 * 8) + 4)), reinterpret_cast<const unsigned*>(p_f + (ki_3 * 8)), reinterpret_cast<const unsigned*>(B_local_3 + ((j_3 * 8) + 4)));
      }
    }
  }
  #pragma unroll
  for (int i_24 = 0; i_24 < 8; ++i_24) {
    float broadcast_var_11 = 0x0p+0f/*0.000000e+00*/;
    *(float4*)(s_f + (i_24 * 4)) = make_float4(broadcast_var_11, broadcast_var_11, broadcast_var_11, broadcast_var_11);
  }
  tl::cp_async_wait<1>();
  __syncthreads();
  {
    half_t A_local_2[8];
    half_t B_local_4[32];
    for (int ki_4 = 0; ki_4 < 8; ++ki_4) {
      tl::ptx_ldmatrix_x4((&(((half_t*)q_s)[(((((((ki_4 >> 2) * 8192) + ((((int)threadIdx.x) >> 5) * 1024)) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((ki_4 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (ki_4 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8))])), (&(A_local_2[0])));
      #pragma unroll
      for (int i_25 = 0; i_25 < 4; ++i_25) {
        tl::ptx_ldmatrix_x4((&(((half_t*)k_s)[(((((((((ki_4 >> 2) * 4096) + (i_25 * 1024)) + (((((int)threadIdx.x) & 31) >> 4) * 512)) + ((((int)threadIdx.x) & 7) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((ki_4 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (ki_4 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 15) >> 3) + (((int)threadIdx.x) & 1)) & 1) * 8)) + 8192)])), (&(B_local_4[(i_25 * 8)])));
      }
      for (int j_4 = 0; j_4 < 4; ++j_4) {
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(s_f + (j_4 * 8)), reinterpret_cast<const unsigned*>(A_local_2 + 0), reinterpret_cast<const unsigned*>(B_local_4 + (j_4 * 8)));
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(s_f + ((j_4 * 8) + 4)), reinterpret_cast<const unsigned*>(A_local_2 + 0), reinterpret_cast<const unsigned*>(B_local_4 + ((j_4 * 8) + 4)));
      }
    }
  }
  *(float2*)(m_old + 0) = *(float2*)(m_new + 0);
  #pragma unroll
  for (int i_26 = 0; i_26 < 2; ++i_26) {
    m_new_clear_2[i_26] = -CUDART_INF_F;
    #pragma unroll
    for (int rv_4 = 0; rv_4 < 16; ++rv_4) {
      m_new_clear_2[i_26] = max(m_new_clear_2[i_26], s_f[((((rv_4 & 7) * 4) + (i_26 * 2)) + (rv_4 >> 3))]);
    }
    m_new_clear_2[i_26] = tl::AllReduce<tl::MaxOp, 4, 1, 0, tl::NamedBarrier<256>>::run(m_new_clear_2[i_26]);
    m_new[i_26] = max(m_new[i_26], m_new_clear_2[i_26]);
  }
  float broadcast_var_12 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
  float broadcast_var_13 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
  float2 __23;
  float2 __24;
    float2 __25;
      float2 v__26 = *(float2*)(m_old + 0);
      float2 v__27 = make_float2(broadcast_var_12, broadcast_var_12);
      __25.x = (v__26.x*v__27.x);
      __25.y = (v__26.y*v__27.y);
    float2 __26;
      float2 v__28 = *(float2*)(m_new + 0);
      float2 v__29 = make_float2(broadcast_var_13, broadcast_var_13);
      __26.x = (v__28.x*v__29.x);
      __26.y = (v__28.y*v__29.y);
    __24.x = (__25.x-__26.x);
    __24.y = (__25.y-__26.y);
  __23.x = exp2f(__24.x);
  __23.y = exp2f(__24.y);
  *(float2*)(alpha + 0) = __23;
  #pragma unroll
  for (int i_27 = 0; i_27 < 16; ++i_27) {
    float broadcast_var_14 = 0x1.0527dbd5cafffp-3f/*1.275174e-01*/;
    float2 __27;
    float2 __28;
      float2 __29;
        float2 v__30 = *(float2*)(s_f + (i_27 * 2));
        float2 v__31 = make_float2(broadcast_var_14, broadcast_var_14);
        __29.x = (v__30.x*v__31.x);
        __29.y = (v__30.y*v__31.y);
      float2 v__32 = make_float2((m_new[(i_27 & 1)] * 0x1.0527dbd5cafffp-3f/*1.275174e-01*/), (m_new[(i_27 & 1)] * 0x1.0527dbd5cafffp-3f/*1.275174e-01*/));
      __28.x = (__29.x-v__32.x);
      __28.y = (__29.y-v__32.y);
    __27.x = exp2f(__28.x);
    __27.y = exp2f(__28.y);
    *(float2*)(s_f + (i_27 * 2)) = __27;
  }
  #pragma unroll
  for (int i_28 = 0; i_28 < 2; ++i_28) {
    row_sum[i_28] = 0x0p+0f/*0.000000e+00*/;
    #pragma unroll
    for (int rv_5 = 0; rv_5 < 16; ++rv_5) {
      row_sum[i_28] = (row_sum[i_28] + s_f[((((rv_5 & 7) * 4) + (i_28 * 2)) + (rv_5 >> 3))]);
    }
    row_sum[i_28] = tl::AllReduce<tl::SumOp, 4, 1, 0, tl::NamedBarrier<256>>::run(row_sum[i_28]);
  }
  float2 __30;
    float2 __31;
      float2 v__33 = *(float2*)(denom + 0);
      float2 v__34 = *(float2*)(alpha + 0);
      __31.x = (v__33.x*v__34.x);
      __31.y = (v__33.y*v__34.y);
    float2 v__35 = *(float2*)(row_sum + 0);
    __30.x = (__31.x+v__35.x);
    __30.y = (__31.y+v__35.y);
  *(float2*)(denom + 0) = __30;
  #pragma unroll
  for (int i_29 = 0; i_29 < 8; ++i_29) {
    uint2 __32;
    float4 v__36 = *(float4*)(s_f + (i_29 * 4));
    ((half2*)(&__32))[0] = __float22half2_rn(((float2*)(&v__36))[0]);
    ((half2*)(&__32))[1] = __float22half2_rn(((float2*)(&v__36))[1]);
    *(uint2*)(p_f + (i_29 * 4)) = __32;
  }
  #pragma unroll
  for (int i_30 = 0; i_30 < 32; ++i_30) {
    float2 __33;
      float2 v__37 = *(float2*)(o_f + (i_30 * 2));
      float2 v__38 = make_float2(alpha[(i_30 & 1)], alpha[(i_30 & 1)]);
      __33.x = (v__37.x*v__38.x);
      __33.y = (v__37.y*v__38.y);
    *(float2*)(o_f + (i_30 * 2)) = __33;
  }
  tl::cp_async_wait<0>();
  __syncthreads();
  {
    half_t B_local_5[64];
    for (int ki_5 = 0; ki_5 < 4; ++ki_5) {
      #pragma unroll
      for (int i_31 = 0; i_31 < 8; ++i_31) {
        tl::ptx_ldmatrix_x4_trans((&(((half_t*)v_s)[((((((((i_31 >> 2) * 4096) + (ki_5 * 1024)) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + ((i_31 & 3) >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (i_31 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8)) + 8192)])), (&(B_local_5[(i_31 * 8)])));
      }
      for (int j_5 = 0; j_5 < 8; ++j_5) {
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(o_f + (j_5 * 8)), reinterpret_cast<const unsigned*>(p_f + (ki_5 * 8)), reinterpret_cast<const unsigned*>(B_local_5 + (j_5 * 8)));
        tl::mma_sync<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 16, 8, 16, false, true>(reinterpret_cast<float*>(o_f + ((j_5 * 8) + 4)), reinterpret_cast<const unsigned*>(p_f + (ki_5 * 8)), reinterpret_cast<const unsigned*>(B_local_5 + ((j_5 * 8) + 4)));
      }
    }
  }
  #pragma unroll
  for (int i_32 = 0; i_32 < 32; ++i_32) {
    float2 __34;
      float2 v__39 = *(float2*)(o_f + (i_32 * 2));
      float2 v__40 = make_float2(denom[(i_32 & 1)], denom[(i_32 & 1)]);
      __34.x = (v__39.x/v__40.x);
      __34.y = (v__39.y/v__40.y);
    *(float2*)(o_f + (i_32 * 2)) = __34;
  }
  __syncthreads();
  #pragma unroll
  for (int i_33 = 0; i_33 < 32; ++i_33) {
    half_t o_s_local_cast[2];
    uint1 __35;
    float2 v__41 = *(float2*)(o_f + (i_33 * 2));
    ((half2*)(&__35))[0] = __float22half2_rn(((float2*)(&v__41))[0]);
    *(uint1*)(o_s_local_cast + 0) = __35;
    *(uint1*)(((half_t*)o_s) + ((((((((int)threadIdx.x) >> 5) * 2048) + ((i_33 & 1) * 1024)) + (((((int)threadIdx.x) & 31) >> 2) * 128)) + ((i_33 >> 1) * 8)) + ((((int)threadIdx.x) & 3) * 2))) = *(uint1*)(o_s_local_cast + 0);
  }
  __syncthreads();
  #pragma unroll
  for (int i_34 = 0; i_34 < 8; ++i_34) {
    *(uint4*)(O + (((((((int)blockIdx.x) * 131072) + (i_34 * 16384)) + ((((int)threadIdx.x) >> 4) * 1024)) + (((int)blockIdx.y) * 128)) + ((((int)threadIdx.x) & 15) * 8))) = *(uint4*)(((half_t*)o_s) + ((i_34 * 2048) + (((int)threadIdx.x) * 8)));
  }
}

