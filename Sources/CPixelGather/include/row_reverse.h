#ifndef FC_ROW_REVERSE_H
#define FC_ROW_REVERSE_H
// Rows read backwards (horiz and 180 of YUV planes; PlaneOrientation.swift): 32 or 16
// bytes at a time, reversed in a register by a byte shuffle. Swift's loop over
// `d[x] = s[w - 1 - x]` stayed one byte load and store at a time (~1 byte a cycle).
#include <stddef.h>
#include <stdint.h>
#if defined(__AVX2__) || defined(__SSSE3__)
#include <immintrin.h>
#endif

/// `dst[i] = src[count - 1 - i]` for `count` elements of `elementBytes` (1 or 2) bytes:
/// each element's bytes stay in order.
static inline
void fc_reverse_row(const uint8_t *src, uint8_t *dst, ptrdiff_t count, int elementBytes) {
    const ptrdiff_t bytes = count * elementBytes;
    ptrdiff_t i = 0;
#if defined(__AVX2__)
    // Reversed within each 16-byte lane by the shuffle, then the two lanes swapped.
    const __m256i lanes = elementBytes == 1
        ? _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                           15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
        : _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
                           14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    for (; i + 32 <= bytes; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + bytes - 32 - i));
        v = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, lanes), 0x4E);
        _mm256_storeu_si256((__m256i *)(dst + i), v);
    }
#endif
#if defined(__SSSE3__)
    const __m128i order = elementBytes == 1
        ? _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
        : _mm_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    for (; i + 16 <= bytes; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + bytes - 16 - i));
        _mm_storeu_si128((__m128i *)(dst + i), _mm_shuffle_epi8(v, order));
    }
#endif
    // The rest (fewer than 16 bytes, or every byte without SSSE3), element by element.
    for (; i < bytes; i += elementBytes) {
        const uint8_t *e = src + bytes - elementBytes - i;
        dst[i] = e[0];
        if (elementBytes == 2) dst[i + 1] = e[1];
    }
}

#endif
