/* The W = 64 (zmm) parameters of vec_copy.h, shared by its three W = 64
 * entries: avx512.c, avx512_masked.c and avx512_ymmloop.c (each defines
 * FC_VEC_ID first). */
#define FC_VT __m512i
#define FC_W 64
#define FC_LOADU(p) _mm512_loadu_si512(p)
#define FC_STOREU(p, v) _mm512_storeu_si512(p, v)
#define FC_STOREA(p, v) _mm512_store_si512(p, v)
#define FC_STREAM(p, v) _mm512_stream_si512(p, v)
