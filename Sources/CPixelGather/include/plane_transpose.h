#ifndef FC_PLANE_TRANSPOSE_H
#define FC_PLANE_TRANSPOSE_H
// The 90° turns of YUV planes (PlaneOrientation.swift): blocks of 16×16 bytes or 8×8
// 2-byte pairs transposed in SSE2 registers by unpack instructions, which Swift's
// vectorizer does not produce. Per byte ~4× fewer instructions than the 64-bit SWAR
// transpose of 8×8 bytes. SSE2 is in every x86-64 CPU; elsewhere the same in plain C.
//
// Load i of a block reads `src + i·srcStep` (one output column, 16 or 8 output rows);
// stored row j goes to `dst + j·dstStride`. A negative `dstStride` starting at the
// band's last row writes the rows bottom up: the turns that read source rows backwards
// need no byte reversal.
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Each unpack round takes rows i and i+8 of `in` to rows 2i and 2i+1 of `out`. Written
// out in full, not as a loop over arrays: inlined into Swift, a loop over the rounds was
// not unrolled, and the arrays went through the stack (half the speed).
#define FC_UNPACK_ROUND16(unpacklo, unpackhi, in, out) \
    out##0 = unpacklo(in##0, in##8);   out##1 = unpackhi(in##0, in##8); \
    out##2 = unpacklo(in##1, in##9);   out##3 = unpackhi(in##1, in##9); \
    out##4 = unpacklo(in##2, in##10);  out##5 = unpackhi(in##2, in##10); \
    out##6 = unpacklo(in##3, in##11);  out##7 = unpackhi(in##3, in##11); \
    out##8 = unpacklo(in##4, in##12);  out##9 = unpackhi(in##4, in##12); \
    out##10 = unpacklo(in##5, in##13); out##11 = unpackhi(in##5, in##13); \
    out##12 = unpacklo(in##6, in##14); out##13 = unpackhi(in##6, in##14); \
    out##14 = unpacklo(in##7, in##15); out##15 = unpackhi(in##7, in##15);

/// The same for 8 rows: rows i and i+4 of `in` to rows 2i and 2i+1 of `out`.
#define FC_UNPACK_ROUND8(unpacklo, unpackhi, in, out) \
    out##0 = unpacklo(in##0, in##4); out##1 = unpackhi(in##0, in##4); \
    out##2 = unpacklo(in##1, in##5); out##3 = unpackhi(in##1, in##5); \
    out##4 = unpacklo(in##2, in##6); out##5 = unpackhi(in##2, in##6); \
    out##6 = unpacklo(in##3, in##7); out##7 = unpackhi(in##3, in##7);

/// `blocks` 16×16 byte blocks side by side: block b reads from `src + 16·b·srcStep`
/// and writes 16 bytes at `dst + 16·b` of each of the 16 rows.
static inline
void fc_transpose_bytes16(const uint8_t *src, ptrdiff_t srcStep, uint8_t *dst, ptrdiff_t dstStride, ptrdiff_t blocks) {
    for (ptrdiff_t b = 0; b < blocks; b++, src += 16 * srcStep, dst += 16) {
#if defined(__SSE2__)
        __m128i r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15;
        __m128i t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15;
#define FC_LOAD(i) r##i = _mm_loadu_si128((const __m128i *)(src + i * srcStep));
        FC_LOAD(0) FC_LOAD(1) FC_LOAD(2) FC_LOAD(3) FC_LOAD(4) FC_LOAD(5) FC_LOAD(6) FC_LOAD(7)
        FC_LOAD(8) FC_LOAD(9) FC_LOAD(10) FC_LOAD(11) FC_LOAD(12) FC_LOAD(13) FC_LOAD(14) FC_LOAD(15)
        // Each round moves the top bit of the row index to the bottom of the byte index
        // and the top bit of the byte index to the bottom of the row index: after four
        // the two indices have traded places.
        FC_UNPACK_ROUND16(_mm_unpacklo_epi8, _mm_unpackhi_epi8, r, t)
        FC_UNPACK_ROUND16(_mm_unpacklo_epi8, _mm_unpackhi_epi8, t, r)
        FC_UNPACK_ROUND16(_mm_unpacklo_epi8, _mm_unpackhi_epi8, r, t)
        FC_UNPACK_ROUND16(_mm_unpacklo_epi8, _mm_unpackhi_epi8, t, r)
#define FC_STORE(j) _mm_storeu_si128((__m128i *)(dst + j * dstStride), r##j);
        FC_STORE(0) FC_STORE(1) FC_STORE(2) FC_STORE(3) FC_STORE(4) FC_STORE(5) FC_STORE(6) FC_STORE(7)
        FC_STORE(8) FC_STORE(9) FC_STORE(10) FC_STORE(11) FC_STORE(12) FC_STORE(13) FC_STORE(14) FC_STORE(15)
#else
        for (int j = 0; j < 16; j++)
            for (int i = 0; i < 16; i++) dst[j * dstStride + i] = src[i * srcStep + j];
#endif
    }
}

/// `blocks` 8×8 blocks of 2-byte pairs (NV12's interleaved chroma) side by side, as
/// `fc_transpose_bytes16`: block b reads from `src + 8·b·srcStep`, writes 16 bytes at
/// `dst + 16·b` of each of the 8 rows.
static inline
void fc_transpose_pairs8(const uint8_t *src, ptrdiff_t srcStep, uint8_t *dst, ptrdiff_t dstStride, ptrdiff_t blocks) {
    for (ptrdiff_t b = 0; b < blocks; b++, src += 8 * srcStep, dst += 16) {
#if defined(__SSE2__)
        __m128i r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, t2, t3, t4, t5, t6, t7;
        FC_LOAD(0) FC_LOAD(1) FC_LOAD(2) FC_LOAD(3) FC_LOAD(4) FC_LOAD(5) FC_LOAD(6) FC_LOAD(7)
        FC_UNPACK_ROUND8(_mm_unpacklo_epi16, _mm_unpackhi_epi16, r, t)
        FC_UNPACK_ROUND8(_mm_unpacklo_epi16, _mm_unpackhi_epi16, t, r)
        FC_UNPACK_ROUND8(_mm_unpacklo_epi16, _mm_unpackhi_epi16, r, t)
        // Three rounds (odd): the result is in t.
#define FC_STORE_T(j) _mm_storeu_si128((__m128i *)(dst + j * dstStride), t##j);
        FC_STORE_T(0) FC_STORE_T(1) FC_STORE_T(2) FC_STORE_T(3) FC_STORE_T(4) FC_STORE_T(5) FC_STORE_T(6) FC_STORE_T(7)
#else
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++) {
                dst[j * dstStride + 2 * i] = src[i * srcStep + 2 * j];
                dst[j * dstStride + 2 * i + 1] = src[i * srcStep + 2 * j + 1];
            }
#endif
    }
}

#undef FC_UNPACK_ROUND16
#undef FC_UNPACK_ROUND8
#undef FC_LOAD
#undef FC_STORE
#undef FC_STORE_T

#endif
