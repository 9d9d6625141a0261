/*
 * sse2 - the x86-64 ladder of vec_copy.h at W = 16 (SSE2: every x86-64 CPU).
 * Policy and size classes: see the table at the top of vec_copy.h.
 */
#if defined(__x86_64__)
#define FC_VEC_ID sse2
#define FC_VT __m128i
#define FC_W 16
#define FC_LOADU(p) _mm_loadu_si128(p)
#define FC_STOREU(p, v) _mm_storeu_si128(p, v)
#define FC_STOREA(p, v) _mm_store_si128(p, v)
#define FC_STREAM(p, v) _mm_stream_si128(p, v)
#include "x86/x86.h"
#include "x86/vec_copy.h"
#endif
