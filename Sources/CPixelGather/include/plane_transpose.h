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

/// `blocks` 16×16 byte blocks side by side: block b reads from `src + 16·b·srcStep`
/// and writes 16 bytes at `dst + 16·b` of each of the 16 rows.
static inline
void fc_transpose_bytes16(const uint8_t *src, ptrdiff_t srcStep, uint8_t *dst, ptrdiff_t dstStride, ptrdiff_t blocks) {
    for (ptrdiff_t b = 0; b < blocks; b++, src += 16 * srcStep, dst += 16) {
#if defined(__SSE2__)
        __m128i r[16], t[16];
        for (int i = 0; i < 16; i++) r[i] = _mm_loadu_si128((const __m128i *)(src + i * srcStep));
        // Each round moves the top bit of the row index to the bottom of the byte index
        // and the top bit of the byte index to the bottom of the row index: after four
        // the two indices have traded places.
        for (int round = 0; round < 4; round++) {
            __m128i *in = round & 1 ? t : r, *out = round & 1 ? r : t;
            for (int i = 0; i < 8; i++) {
                out[2 * i] = _mm_unpacklo_epi8(in[i], in[i + 8]);
                out[2 * i + 1] = _mm_unpackhi_epi8(in[i], in[i + 8]);
            }
        }
        for (int j = 0; j < 16; j++) _mm_storeu_si128((__m128i *)(dst + j * dstStride), r[j]);
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
        __m128i r[8], t[8];
        for (int i = 0; i < 8; i++) r[i] = _mm_loadu_si128((const __m128i *)(src + i * srcStep));
        for (int round = 0; round < 3; round++) {
            __m128i *in = round & 1 ? t : r, *out = round & 1 ? r : t;
            for (int i = 0; i < 4; i++) {
                out[2 * i] = _mm_unpacklo_epi16(in[i], in[i + 4]);
                out[2 * i + 1] = _mm_unpackhi_epi16(in[i], in[i + 4]);
            }
        }
        // Three rounds (odd): the result is in t.
        for (int j = 0; j < 8; j++) _mm_storeu_si128((__m128i *)(dst + j * dstStride), t[j]);
#else
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++) {
                dst[j * dstStride + 2 * i] = src[i * srcStep + 2 * j];
                dst[j * dstStride + 2 * i + 1] = src[i * srcStep + 2 * j + 1];
            }
#endif
    }
}

#endif
