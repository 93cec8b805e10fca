// SPDX-License-Identifier: Apache-2.0
// Function multiversioning for the batch loops: an AVX2 build where the CPU has it, baseline
// x86-64 otherwise (GCC; not under sanitizers, which do not support ifuncs well).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                             \
    !defined(__SANITIZE_ADDRESS__)
#define TS_CLONES __attribute__((target_clones("avx2", "default")))
#define TS_INLINE __attribute__((always_inline)) inline
#else
#define TS_CLONES
#define TS_INLINE inline
#endif
