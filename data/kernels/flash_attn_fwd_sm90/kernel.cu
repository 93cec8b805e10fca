#if defined(_MSC_VER) && !defined(__clang__) && _MSC_VER < 1940
#define _tl_orig_alignas alignas
#define alignas(N) _tl_orig_alignas((N) <= 64 ? (N) : 64)
#include <cuda.h>
#undef alignas
#define alignas _tl_orig_alignas
#endif
#include <tl_templates/cuda/instruction/wgmma.h>
#include <tl_templates/cuda/intrin.h>
#include <tl_templates/cuda/barrier.h>
#include <tl_templates/cuda/copy_sm90.h>
#include <math_constants.h>
#include <tl_templates/cuda/reduce.h>
#include <tl_templates/cuda/scan.h>
#include <tl_templates/cuda/ldsm.h>
#include <tl_templates/cuda/threadblock_swizzle.h>
#include <tl_templates/cuda/debug.h>
#ifdef ENABLE_BF16
#include <tl_templates/cuda/cuda_bf16_fallbacks.cuh>
#endif

extern "C" __global__ void flash_attn_fwd_sm90_kernel(__grid_constant__ const CUtensorMap K_desc, __grid_constant__ const CUtensorMap O_desc, __grid_constant__ const CUtensorMap Q_desc, __grid_constant__ const CUtensorMap V_desc);
extern "C" __global__ void __launch_bounds__(256, 1) flash_attn_fwd_sm90_kernel(__grid_constant__ const CUtensorMap K_desc, __grid_constant__ const CUtensorMap O_desc, __grid_constant__ const CUtensorMap Q_desc, __grid_constant__ const CUtensorMap V_desc) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* o_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* q_s = ((void*)((char*)buf_dyn_shmem + 0));
  void* k_s = ((void*)((char*)buf_dyn_shmem + 8192));
  void* v_s = ((void*)((char*)buf_dyn_shmem + 24576));
  __shared__ __align__(16) uint64_t mbarrier_mem[9];
  auto mbarrier = reinterpret_cast<Barrier*>(mbarrier_mem);
  float o_f[32];
  float denom[2];
  float m_new[2];
  float s_f[32];
  float m_old[2];
  float m_new_clear[2];
  float alpha[2];
  float row_sum[2];
  half_t p_f[32];
  if (tl::tl_shuffle_elect<0>()) {
    tl::prefetch_tma_descriptor(Q_desc);
    tl::prefetch_tma_descriptor(K_desc);
    tl::prefetch_tma_descriptor(V_desc);
    tl::prefetch_tma_descriptor(O_desc);
  }
  if (tl::tl_shuffle_elect<0>()) {
    mbarrier[0].init(1);
    mbarrier[1].init(1);
    mbarrier[2].init(1);
    mbarrier[3].init(1);
    mbarrier[4].init(128);
    mbarrier[5].init(128);
    mbarrier[6].init(128);
    mbarrier[7].init(128);
    mbarrier[8].init(1);
  }
  tl::fence_barrier_init();
  __syncthreads();
  if (tl::tl_shuffle_elect<256>()) {
    mbarrier[8].arrive_and_expect_tx(8192);
    tl::tma_load(Q_desc, mbarrier[8], (&(((half_t*)q_s)[0])), 0, (((int)blockIdx.x) * 64), ((int)blockIdx.y), 0);
  }
  __syncthreads();
  if (((int)threadIdx.x) < 128) {
    tl::warpgroup_reg_dealloc<24>();
    for (int kb = 0; kb < 16; ++kb) {
      mbarrier[((kb & 1) + 4)].wait((((kb & 3) >> 1) ^ 1));
      if (tl::tl_shuffle_elect<128>()) {
        mbarrier[(kb & 1)].arrive_and_expect_tx(8192);
        tl::tma_load(K_desc, mbarrier[(kb & 1)], (&(((half_t*)k_s)[((kb & 1) * 4096)])), 0, (kb * 64), ((int)blockIdx.y), 0);
      }
      mbarrier[((kb & 1) + 6)].wait((((kb & 3) >> 1) ^ 1));
      if (tl::tl_shuffle_elect<128>()) {
        mbarrier[((kb & 1) + 2)].arrive_and_expect_tx(8192);
        tl::tma_load(V_desc, mbarrier[((kb & 1) + 2)], (&(((half_t*)v_s)[((kb & 1) * 4096)])), 0, (kb * 64), ((int)blockIdx.y), 0);
      }
    }
  } else {
    tl::warpgroup_reg_alloc<240>();
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      *(float4*)(o_f + (i * 4)) = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
    }
    float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
    *(float2*)(denom + 0) = make_float2(broadcast_var_1, broadcast_var_1);
    float broadcast_var_2 = -CUDART_INF_F;
    *(float2*)(m_new + 0) = make_float2(broadcast_var_2, broadcast_var_2);
    for (int kb_1 = 0; kb_1 < 16; ++kb_1) {
      #pragma unroll
      for (int i_1 = 0; i_1 < 8; ++i_1) {
        float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
        *(float4*)(s_f + (i_1 * 4)) = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
      }
      if (kb_1 == 0) {
        mbarrier[8].wait(0);
      }
      mbarrier[(kb_1 & 1)].wait(((kb_1 & 3) >> 1));
      {
        tl::GmmaDescriptor desc_a;
        tl::GmmaDescriptor desc_b;
        tl::initialize_wgmma_descriptor<1, 1, 64>(desc_a, (&(((half_t*)q_s)[0])));
        tl::initialize_wgmma_descriptor<1, 1, 64>(desc_b, (&(((half_t*)k_s)[0])));
        tl::increase_descriptor_offset<int>(desc_b, ((kb_1 & 1) * 8192));
        tl::warpgroup_fence_operand(reinterpret_cast<float*>(s_f + 0), 32);
        tl::warpgroup_arrive();
        #pragma unroll
        for (int ki = 0; ki < 4; ++ki) {
          tl::wgmma_ss<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 64, 64, 16, false, false, 1, 1>(uint64_t(desc_a + ((ki * 32) >> 4)), uint64_t(desc_b + ((ki * 32) >> 4)), ((uint32_t*)(s_f + 0)), 1);
        }
        tl::warpgroup_commit_batch();
        tl::warpgroup_wait<0>();
        tl::warpgroup_fence_operand(reinterpret_cast<float*>(s_f + 0), 32);
      }
      mbarrier[((kb_1 & 1) + 4)].arrive();
      *(float2*)(m_old + 0) = *(float2*)(m_new + 0);
      #pragma unroll
      for (int i_2 = 0; i_2 < 2; ++i_2) {
        m_new_clear[i_2] = -CUDART_INF_F;
        #pragma unroll
        for (int rv = 0; rv < 16; ++rv) {
          m_new_clear[i_2] = max(m_new_clear[i_2], s_f[((((rv & 7) * 4) + (i_2 * 2)) + (rv >> 3))]);
        }
        m_new_clear[i_2] = tl::AllReduce<tl::MaxOp, 4, 1, 128, tl::NamedBarrier<128>>::run(m_new_clear[i_2]);
        m_new[i_2] = max(m_new[i_2], m_new_clear[i_2]);
      }
      float broadcast_var_4 = 0x1.7154764ee6c2fp-3f/*1.803369e-01*/;
      float broadcast_var_5 = 0x1.7154764ee6c2fp-3f/*1.803369e-01*/;
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
      for (int i_3 = 0; i_3 < 16; ++i_3) {
        float broadcast_var_6 = 0x1.7154764ee6c2fp-3f/*1.803369e-01*/;
        float2 __5;
        float2 __6;
          float2 __7;
            float2 v__4 = *(float2*)(s_f + (i_3 * 2));
            float2 v__5 = make_float2(broadcast_var_6, broadcast_var_6);
            __7.x = (v__4.x*v__5.x);
            __7.y = (v__4.y*v__5.y);
          float2 v__6 = make_float2((m_new[(i_3 & 1)] * 0x1.7154764ee6c2fp-3f/*1.803369e-01*/), (m_new[(i_3 & 1)] * 0x1.7154764ee6c2fp-3f/*1.803369e-01*/));
          __6.x = (__7.x-v__6.x);
          __6.y = (__7.y-v__6.y);
        __5.x = exp2f(__6.x);
        __5.y = exp2f(__6.y);
        *(float2*)(s_f + (i_3 * 2)) = __5;
      }
      #pragma unroll
      for (int i_4 = 0; i_4 < 2; ++i_4) {
        row_sum[i_4] = 0x0p+0f/*0.000000e+00*/;
        #pragma unroll
        for (int rv_1 = 0; rv_1 < 16; ++rv_1) {
          row_sum[i_4] = (row_sum[i_4] + s_f[((((rv_1 & 7) * 4) + (i_4 * 2)) + (rv_1 >> 3))]);
        }
        row_sum[i_4] = tl::AllReduce<tl::SumOp, 4, 1, 128, tl::NamedBarrier<128>>::run(row_sum[i_4]);
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
      for (int i_5 = 0; i_5 < 8; ++i_5) {
        uint2 __10;
        float4 v__10 = *(float4*)(s_f + (i_5 * 4));
        ((half2*)(&__10))[0] = __float22half2_rn(((float2*)(&v__10))[0]);
        ((half2*)(&__10))[1] = __float22half2_rn(((float2*)(&v__10))[1]);
        *(uint2*)(p_f + (i_5 * 4)) = __10;
      }
      #pragma unroll
      for (int i_6 = 0; i_6 < 16; ++i_6) {
        float2 __11;
          float2 v__11 = *(float2*)(o_f + (i_6 * 2));
          float2 v__12 = make_float2(alpha[(i_6 & 1)], alpha[(i_6 & 1)]);
          __11.x = (v__11.x*v__12.x);
          __11.y = (v__11.y*v__12.y);
        *(float2*)(o_f + (i_6 * 2)) = __11;
      }
      mbarrier[((kb_1 & 1) + 2)].wait(((kb_1 & 3) >> 1));
      {
        tl::GmmaDescriptor desc_b_1;
        tl::initialize_wgmma_descriptor<1, 0, 64>(desc_b_1, (&(((half_t*)v_s)[0])));
        tl::increase_descriptor_offset<int>(desc_b_1, ((kb_1 & 1) * 8192));
        tl::warpgroup_fence_operand(reinterpret_cast<uint32_t*>(p_f + 0), 16);
        tl::warpgroup_fence_operand(reinterpret_cast<float*>(o_f + 0), 32);
        tl::warpgroup_arrive();
        #pragma unroll
        for (int ki_1 = 0; ki_1 < 4; ++ki_1) {
          tl::wgmma_rs<tl::DataType::kFloat16, tl::DataType::kFloat16, tl::DataType::kFloat32, 64, 64, 16, false, true, 1, 1>(reinterpret_cast<const uint32_t*>(p_f + (ki_1 * 8)), uint64_t(desc_b_1 + ((ki_1 * 2048) >> 4)), reinterpret_cast<uint32_t*>(o_f + 0), 1);
        }
        tl::warpgroup_commit_batch();
        tl::warpgroup_wait<0>();
        tl::warpgroup_fence_operand(reinterpret_cast<float*>(o_f + 0), 32);
        tl::warpgroup_fence_operand(reinterpret_cast<uint32_t*>(p_f + 0), 16);
      }
      mbarrier[((kb_1 & 1) + 6)].arrive();
    }
    #pragma unroll
    for (int i_7 = 0; i_7 < 16; ++i_7) {
      float2 __12;
        float2 v__13 = *(float2*)(o_f + (i_7 * 2));
        float2 v__14 = make_float2(denom[(i_7 & 1)], denom[(i_7 & 1)]);
        __12.x = (v__13.x/v__14.x);
        __12.y = (v__13.y/v__14.y);
      *(float2*)(o_f + (i_7 * 2)) = __12;
    }
    tl::__sync_thread_partial(3, 128);
    #pragma unroll
    for (int i_8 = 0; i_8 < 4; ++i_8) {
      tl::ptx_stmatrix_m8n8_x4((&(((half_t*)o_s)[(((((((((int)threadIdx.x) >> 5) * 1024) + ((((int)threadIdx.x) & 15) * 64)) + (((((((int)threadIdx.x) & 7) >> 2) + (i_8 >> 1)) & 1) * 32)) + (((((((int)threadIdx.x) & 3) >> 1) + (i_8 & 1)) & 1) * 16)) + (((((((int)threadIdx.x) & 31) >> 4) + (((int)threadIdx.x) & 1)) & 1) * 8)) - 4096)])), __pack_half2(((half_t)o_f[(i_8 * 8)]), ((half_t)o_f[((i_8 * 8) + 1)])), __pack_half2(((half_t)o_f[((i_8 * 8) + 2)]), ((half_t)o_f[((i_8 * 8) + 3)])), __pack_half2(((half_t)o_f[((i_8 * 8) + 4)]), ((half_t)o_f[((i_8 * 8) + 5)])), __pack_half2(((half_t)o_f[((i_8 * 8) + 6)]), ((half_t)o_f[((i_8 * 8) + 7)])));
    }
    tl::__sync_thread_partial(3, 128);
    if (tl::tl_shuffle_elect<128>()) {
      tl::fence_proxy_async();
      tl::tma_store(O_desc, (&(((half_t*)o_s)[0])), 0, (((int)blockIdx.x) * 64), ((int)blockIdx.y), 0);
      tl::tma_store_arrive();
      tl::tma_store_wait<0, true>();
    }
  }
}

