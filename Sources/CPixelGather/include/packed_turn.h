#ifndef FC_PACKED_TURN_H
#define FC_PACKED_TURN_H
// The four turns that swap axes of packed 4:2:2 frames (YUY2, UYVY; PackedOrientation
// .swift), videoflip's rules: an output macropixel takes the luma of two successive
// source rows in one source column and the mean of their chroma, rounded down. Here in
// blocks: 16 bytes (4 macropixels, 8 source columns) from each of 8 source rows become
// 16 bytes (4 macropixels) in each of 8 output rows, the two 4×4 word transposes done in
// SSE2 registers; the Swift loop wrote one 32-bit word per load pair.
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// `blocks` blocks of 8 output rows × 4 output macropixels. Source row r of block b
/// (r = 0…7, in output order: the first and second luma of output macropixel 4b + r/2)
/// starts at `src + (8·b + r)·srcStep`; its 16 bytes hold the source columns c0…c0+7
/// (c0 even). Output row m (m = 0…7, the one of source column c0 + m) is written at
/// `dst + m·dstStride + 16·b`. `lumaShift` is 0 for YUY2 (Y0 U Y1 V), 8 for UYVY.
static inline
void fc_turn_packed422(const uint8_t *src, ptrdiff_t srcStep, uint8_t *dst, ptrdiff_t dstStride,
                       ptrdiff_t blocks, int lumaShift) {
    const uint32_t lumaLow = 0xFFu << lumaShift, lumaHigh = 0xFFu << (lumaShift + 16);
    const uint32_t chromaMask = ~(lumaLow | lumaHigh);
    for (ptrdiff_t b = 0; b < blocks; b++, src += 8 * srcStep, dst += 16) {
#if defined(__SSE2__)
        const __m128i chroma = _mm_set1_epi32((int)chromaMask), low = _mm_set1_epi32((int)lumaLow),
                      high = _mm_set1_epi32((int)lumaHigh), halves = _mm_set1_epi8(0x7F);
        __m128i even[4], odd[4];
        for (int k = 0; k < 4; k++) {
            __m128i a = _mm_loadu_si128((const __m128i *)(src + 2 * k * srcStep));
            __m128i c = _mm_loadu_si128((const __m128i *)(src + (2 * k + 1) * srcStep));
            // (a & c) + ((a ^ c) >> 1) per byte: the mean rounded down.
            __m128i mean = _mm_add_epi8(_mm_and_si128(a, c),
                                        _mm_and_si128(_mm_srli_epi16(_mm_xor_si128(a, c), 1), halves));
            mean = _mm_and_si128(mean, chroma);
            // Even columns take each macropixel's first luma, odd ones its second: from
            // row a into the output's first luma, from row c into its second.
            even[k] = _mm_or_si128(mean, _mm_or_si128(_mm_and_si128(a, low),
                                                      _mm_and_si128(_mm_slli_epi32(c, 16), high)));
            odd[k] = _mm_or_si128(mean, _mm_or_si128(_mm_and_si128(_mm_srli_epi32(a, 16), low),
                                                     _mm_and_si128(c, high)));
        }
        // Word m of even[k] belongs to output row 2m, macropixel k: transpose 4×4 words.
        __m128i *sets[2] = { even, odd };
        for (int s = 0; s < 2; s++) {
            __m128i *v = sets[s];
            __m128i t0 = _mm_unpacklo_epi32(v[0], v[1]), t1 = _mm_unpackhi_epi32(v[0], v[1]);
            __m128i t2 = _mm_unpacklo_epi32(v[2], v[3]), t3 = _mm_unpackhi_epi32(v[2], v[3]);
            _mm_storeu_si128((__m128i *)(dst + (0 + s) * dstStride), _mm_unpacklo_epi64(t0, t2));
            _mm_storeu_si128((__m128i *)(dst + (2 + s) * dstStride), _mm_unpackhi_epi64(t0, t2));
            _mm_storeu_si128((__m128i *)(dst + (4 + s) * dstStride), _mm_unpacklo_epi64(t1, t3));
            _mm_storeu_si128((__m128i *)(dst + (6 + s) * dstStride), _mm_unpackhi_epi64(t1, t3));
        }
#else
        for (int k = 0; k < 4; k++) {
            for (int mp = 0; mp < 4; mp++) {
                uint32_t a, c;
                __builtin_memcpy(&a, src + 2 * k * srcStep + 4 * mp, 4);
                __builtin_memcpy(&c, src + (2 * k + 1) * srcStep + 4 * mp, 4);
                uint32_t mean = ((a & c) + (((a ^ c) & 0xFEFEFEFEu) >> 1)) & chromaMask;
                uint32_t e = mean | (a & lumaLow) | ((c << 16) & lumaHigh);
                uint32_t o = mean | ((a >> 16) & lumaLow) | (c & lumaHigh);
                __builtin_memcpy(dst + (2 * mp) * dstStride + 4 * k, &e, 4);
                __builtin_memcpy(dst + (2 * mp + 1) * dstStride + 4 * k, &o, 4);
            }
        }
#endif
    }
}

#endif
