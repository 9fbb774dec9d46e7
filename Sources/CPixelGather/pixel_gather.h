#ifndef FC_PIXEL_GATHER_H
#define FC_PIXEL_GATHER_H
// Table lookups eight pixels at a time, for Swift: the compiler's AVX2 gather is a macro,
// which Swift cannot call. One gather keeps eight table loads in flight, where a scalar
// loop waits on them more: on a 1080p photo through a look's 64 MB table, whose loads
// mostly miss the core's caches, ~1.3x less CPU per frame. Without AVX2 (the portable
// build) the same in plain C.
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/// out[i] = (pixels[i] & 0xFF000000) | table[pixels[i] & 0xFFFFFF] for i in 0..<8: a table
/// indexed by a pixel's three colour bytes, its alpha byte kept. `out` may be `pixels`.
static inline __attribute__((always_inline))
void fc_table_lookup8(const uint32_t *pixels, uint32_t *out, const uint32_t *table) {
#if defined(__AVX2__)
    const __m256i colour = _mm256_set1_epi32(0xFFFFFF);
    __m256i p = _mm256_loadu_si256((const __m256i *)pixels);
    __m256i looked = _mm256_i32gather_epi32((const int *)table, _mm256_and_si256(p, colour), 4);
    _mm256_storeu_si256((__m256i *)out, _mm256_or_si256(looked, _mm256_andnot_si256(colour, p)));
#else
    for (int i = 0; i < 8; i++) out[i] = (pixels[i] & 0xFF000000u) | table[pixels[i] & 0xFFFFFFu];
#endif
}

#endif
