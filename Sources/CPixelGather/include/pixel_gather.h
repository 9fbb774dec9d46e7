#ifndef FC_PIXEL_GATHER_H
#define FC_PIXEL_GATHER_H
// Table lookups eight pixels at a time, for Swift: the compiler's AVX2 gather is a macro,
// which Swift cannot call. One gather keeps eight table loads in flight, where a scalar
// loop waits on them more: on a 1080p photo through a look's 48 MB table, whose loads
// mostly miss the core's caches, ~1.3x less CPU per frame. Without AVX2 (the portable
// build) the same in plain C.
// SwiftPM does not rebuild the Swift modules that inline these when only this header
// changes: touch a Swift file of FilterCore after editing it.
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

// A look's table (LookTable.swift) has an entry of three bytes per colour, at three times
// the colour: the gathers load the four bytes from there (scale 1) and drop the fourth.

/// The table entries at `colours` (eight, below 2^24): the four bytes at three times each,
/// the fourth dropped.
#if defined(__AVX2__)
static inline __attribute__((always_inline))
__m256i fc_look_entries8(const uint8_t *table, __m256i colours) {
    __m256i at = _mm256_add_epi32(colours, _mm256_add_epi32(colours, colours));
    return _mm256_and_si256(_mm256_i32gather_epi32((const int *)table, at, 1), _mm256_set1_epi32(0xFFFFFF));
}
#endif

/// `fc_look_entries8`, each load kept within one cache line where the entry is: the four
/// bytes ending with the entry, except for an entry starting a line (a colour whose first
/// byte is a multiple of 64). A gather with a load across two lines costs several: a 1080p
/// frame of colour bars, whose bytes are mostly 0 and 0xFF, took 2.3x the time
/// reading the four bytes from each entry's first (0xFF's entry ends a line, so its fourth
/// byte is in the next). What is left across lines: the entries that straddle one (2 in
/// 64), inherent to three-byte entries. The YUV site kernels below keep `fc_look_entries8`:
/// with this one their rows gained nothing and their photo rows lost up to 10 %.
#if defined(__AVX2__)
static inline __attribute__((always_inline))
__m256i fc_look_entries8_within_lines(const uint8_t *table, __m256i colours) {
    // -1 where the entry does not start a line: read from the byte before it, and shift that out.
    const __m256i inside = _mm256_cmpgt_epi32(_mm256_and_si256(colours, _mm256_set1_epi32(63)), _mm256_setzero_si256());
    const __m256i at = _mm256_add_epi32(_mm256_add_epi32(colours, _mm256_add_epi32(colours, colours)), inside);
    const __m256i loaded = _mm256_i32gather_epi32((const int *)table, at, 1);
    return _mm256_and_si256(_mm256_srlv_epi32(loaded, _mm256_and_si256(inside, _mm256_set1_epi32(8))), _mm256_set1_epi32(0xFFFFFF));
}
#endif

/// The table entry of `colour` (below 2^24).
static inline __attribute__((always_inline))
uint32_t fc_look_entry(const uint8_t *table, uint32_t colour) {
    const uint8_t *e = table + 3u * colour;
    return (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16;
}

/// out[i] = (pixels[i] & 0xFF000000) | the entry of pixels[i] & 0xFFFFFF, for i in 0..<8:
/// a look's table read with a pixel's three colour bytes, its alpha byte kept. `out` may be `pixels`.
static inline __attribute__((always_inline))
void fc_table_lookup8(const uint32_t *pixels, uint32_t *out, const uint8_t *table) {
#if defined(__AVX2__)
    const __m256i colour = _mm256_set1_epi32(0xFFFFFF);
    __m256i p = _mm256_loadu_si256((const __m256i *)pixels);
    __m256i looked = fc_look_entries8_within_lines(table, _mm256_and_si256(p, colour));
    _mm256_storeu_si256((__m256i *)out, _mm256_or_si256(looked, _mm256_andnot_si256(colour, p)));
#else
    for (int i = 0; i < 8; i++) out[i] = (pixels[i] & 0xFF000000u) | fc_look_entry(table, pixels[i] & 0xFFFFFFu);
#endif
}

// A look's table on YUV chroma sites (the `lut` filter's table path, LookFilter+YUV.swift):
// entries indexed by `y | u << 8 | v << 16`, each the looked `y | u << 8 | v << 16`. Each
// pixel of a site goes through the table with its own luma and the site's chroma; the pixel
// keeps the new luma and the site takes the mean of its pixels' new chroma, rounded half up.
// With `take` < 1024, each new sample is then mixed with the original:
// `(original * keep + looked * take + 512) >> 10`. The same arithmetic as the Swift per-site
// path, eight sites per step; whole sites only (the caller does a row's odd last one).

/// A sample mixed with its looked value (`take` 1024: the looked value as it is).
static inline __attribute__((always_inline))
uint32_t fc_look_mix(uint32_t original, uint32_t looked, int32_t take, int32_t keep) {
    return take == 1024 ? looked : (uint32_t)(((int32_t)original * keep + (int32_t)looked * take + 512) >> 10);
}

#if defined(__AVX2__)
static inline __attribute__((always_inline))
__m256i fc_look_mix8(__m256i original, __m256i looked, int32_t take, int32_t keep) {
    if (take == 1024) return looked;
    // original * keep + looked * take in one multiply-add of 16-bit pairs.
    __m256i pairs = _mm256_or_si256(original, _mm256_slli_epi32(looked, 16));
    __m256i weights = _mm256_set1_epi32((int32_t)((uint32_t)keep | (uint32_t)take << 16));
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(pairs, weights), _mm256_set1_epi32(512)), 10);
}

/// Eight 32-bit lanes of values below 2^16, as eight 16-bit values in the low half.
static inline __attribute__((always_inline))
__m128i fc_narrow16(__m256i x) {
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(x, x), 0x08));
}

/// Eight 32-bit lanes of values below 2^8, as eight bytes in the low 64 bits.
static inline __attribute__((always_inline))
__m128i fc_narrow8(__m256i x) {
    __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(x, x), x);
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)));
}
#endif

/// 4:2:0 sites, two rows of pixels: `sites` (a multiple of 8) 2x2 blocks of luma in `top` and
/// `bottom`; the sites' chroma in `u` and `v`, `interleaved` (NV12: u, v, u, v…, `v` = `u` + 1)
/// or planes (I420).
static inline __attribute__((always_inline))
void fc_look_sites420_body(uint8_t *top, uint8_t *bottom, uint8_t *u, uint8_t *v, int interleaved, int sites,
                           const uint8_t *table, int32_t take, int32_t keep) {
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF), two = _mm256_set1_epi32(2);
    for (int s = 0; s < sites; s += 8) {
        __m256i cu, cv;
        if (interleaved) {
            __m256i uv = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(u + 2 * s)));
            cu = _mm256_and_si256(uv, byte);
            cv = _mm256_srli_epi32(uv, 8);
        } else {
            cu = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(u + s)));
            cv = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(v + s)));
        }
        __m256i chroma = _mm256_or_si256(_mm256_slli_epi32(cu, 8), _mm256_slli_epi32(cv, 16));
        // Each lane a site's two pixels of the row: left | right << 8.
        __m256i t = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(top + 2 * s)));
        __m256i b = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(bottom + 2 * s)));
        __m256i y0 = _mm256_and_si256(t, byte), y1 = _mm256_srli_epi32(t, 8);
        __m256i y2 = _mm256_and_si256(b, byte), y3 = _mm256_srli_epi32(b, 8);
        __m256i e0 = fc_look_entries8(table, _mm256_or_si256(y0, chroma));
        __m256i e1 = fc_look_entries8(table, _mm256_or_si256(y1, chroma));
        __m256i e2 = fc_look_entries8(table, _mm256_or_si256(y2, chroma));
        __m256i e3 = fc_look_entries8(table, _mm256_or_si256(y3, chroma));
        __m256i n0 = fc_look_mix8(y0, _mm256_and_si256(e0, byte), take, keep);
        __m256i n1 = fc_look_mix8(y1, _mm256_and_si256(e1, byte), take, keep);
        __m256i n2 = fc_look_mix8(y2, _mm256_and_si256(e2, byte), take, keep);
        __m256i n3 = fc_look_mix8(y3, _mm256_and_si256(e3, byte), take, keep);
        _mm_storeu_si128((__m128i *)(top + 2 * s), fc_narrow16(_mm256_or_si256(n0, _mm256_slli_epi32(n1, 8))));
        _mm_storeu_si128((__m128i *)(bottom + 2 * s), fc_narrow16(_mm256_or_si256(n2, _mm256_slli_epi32(n3, 8))));
        __m256i su = _mm256_add_epi32(
            _mm256_add_epi32(_mm256_and_si256(_mm256_srli_epi32(e0, 8), byte), _mm256_and_si256(_mm256_srli_epi32(e1, 8), byte)),
            _mm256_add_epi32(_mm256_and_si256(_mm256_srli_epi32(e2, 8), byte), _mm256_and_si256(_mm256_srli_epi32(e3, 8), byte)));
        __m256i sv = _mm256_add_epi32(_mm256_add_epi32(_mm256_srli_epi32(e0, 16), _mm256_srli_epi32(e1, 16)),
                                      _mm256_add_epi32(_mm256_srli_epi32(e2, 16), _mm256_srli_epi32(e3, 16)));
        __m256i nu = fc_look_mix8(cu, _mm256_srli_epi32(_mm256_add_epi32(su, two), 2), take, keep);
        __m256i nv = fc_look_mix8(cv, _mm256_srli_epi32(_mm256_add_epi32(sv, two), 2), take, keep);
        if (interleaved) {
            _mm_storeu_si128((__m128i *)(u + 2 * s), fc_narrow16(_mm256_or_si256(nu, _mm256_slli_epi32(nv, 8))));
        } else {
            _mm_storel_epi64((__m128i *)(u + s), fc_narrow8(nu));
            _mm_storel_epi64((__m128i *)(v + s), fc_narrow8(nv));
        }
    }
#else
    const int step = interleaved ? 2 : 1;
    for (int s = 0; s < sites; s++) {
        uint8_t *cu = u + step * s, *cv = v + step * s;
        const uint32_t chroma = (uint32_t)*cu << 8 | (uint32_t)*cv << 16;
        uint8_t *pixels[4] = { top + 2 * s, top + 2 * s + 1, bottom + 2 * s, bottom + 2 * s + 1 };
        uint32_t su = 0, sv = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t e = fc_look_entry(table, *pixels[i] | chroma);
            *pixels[i] = (uint8_t)fc_look_mix(*pixels[i], e & 0xFF, take, keep);
            su += (e >> 8) & 0xFF;
            sv += e >> 16;
        }
        *cu = (uint8_t)fc_look_mix(*cu, (su + 2) >> 2, take, keep);
        *cv = (uint8_t)fc_look_mix(*cv, (sv + 2) >> 2, take, keep);
    }
#endif
}

/// `fc_look_sites420_body` with the layout and whether to mix fixed, so that each compiles
/// without the tests.
static inline
void fc_look_sites420(uint8_t *top, uint8_t *bottom, uint8_t *u, uint8_t *v, int interleaved, int sites,
                      const uint8_t *table, int32_t take, int32_t keep) {
    if (interleaved) {
        if (take == 1024) fc_look_sites420_body(top, bottom, u, v, 1, sites, table, 1024, 0);
        else fc_look_sites420_body(top, bottom, u, v, 1, sites, table, take, keep);
    } else {
        if (take == 1024) fc_look_sites420_body(top, bottom, u, v, 0, sites, table, 1024, 0);
        else fc_look_sites420_body(top, bottom, u, v, 0, sites, table, take, keep);
    }
}

/// 4:2:2 macropixels (YUY2, UYVY): `sites` (a multiple of 8) macropixels of 4 bytes from
/// `row`, each two pixels sharing one U and one V; `y0`, `y1`, `u`, `v` the byte offsets of
/// its samples (YUY2 0, 2, 1, 3; UYVY 1, 3, 0, 2).
static inline __attribute__((always_inline))
void fc_look_sites422_body(uint8_t *row, int y0at, int y1at, int uat, int vat, int sites,
                           const uint8_t *table, int32_t take, int32_t keep) {
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF), one = _mm256_set1_epi32(1);
    for (int s = 0; s < sites; s += 8) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(row + 4 * s));
        __m256i y0 = _mm256_and_si256(_mm256_srli_epi32(m, 8 * y0at), byte);
        __m256i y1 = _mm256_and_si256(_mm256_srli_epi32(m, 8 * y1at), byte);
        __m256i cu = _mm256_and_si256(_mm256_srli_epi32(m, 8 * uat), byte);
        __m256i cv = _mm256_and_si256(_mm256_srli_epi32(m, 8 * vat), byte);
        __m256i chroma = _mm256_or_si256(_mm256_slli_epi32(cu, 8), _mm256_slli_epi32(cv, 16));
        __m256i e0 = fc_look_entries8(table, _mm256_or_si256(y0, chroma));
        __m256i e1 = fc_look_entries8(table, _mm256_or_si256(y1, chroma));
        __m256i n0 = fc_look_mix8(y0, _mm256_and_si256(e0, byte), take, keep);
        __m256i n1 = fc_look_mix8(y1, _mm256_and_si256(e1, byte), take, keep);
        __m256i su = _mm256_add_epi32(_mm256_and_si256(_mm256_srli_epi32(e0, 8), byte), _mm256_and_si256(_mm256_srli_epi32(e1, 8), byte));
        __m256i sv = _mm256_add_epi32(_mm256_srli_epi32(e0, 16), _mm256_srli_epi32(e1, 16));
        __m256i nu = fc_look_mix8(cu, _mm256_srli_epi32(_mm256_add_epi32(su, one), 1), take, keep);
        __m256i nv = fc_look_mix8(cv, _mm256_srli_epi32(_mm256_add_epi32(sv, one), 1), take, keep);
        __m256i out = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(n0, 8 * y0at), _mm256_slli_epi32(n1, 8 * y1at)),
                                      _mm256_or_si256(_mm256_slli_epi32(nu, 8 * uat), _mm256_slli_epi32(nv, 8 * vat)));
        _mm256_storeu_si256((__m256i *)(row + 4 * s), out);
    }
#else
    for (int s = 0; s < sites; s++) {
        uint8_t *m = row + 4 * s;
        const uint32_t chroma = (uint32_t)m[uat] << 8 | (uint32_t)m[vat] << 16;
        const uint32_t e0 = fc_look_entry(table, m[y0at] | chroma), e1 = fc_look_entry(table, m[y1at] | chroma);
        m[y0at] = (uint8_t)fc_look_mix(m[y0at], e0 & 0xFF, take, keep);
        m[y1at] = (uint8_t)fc_look_mix(m[y1at], e1 & 0xFF, take, keep);
        m[uat] = (uint8_t)fc_look_mix(m[uat], (((e0 >> 8) & 0xFF) + ((e1 >> 8) & 0xFF) + 1) >> 1, take, keep);
        m[vat] = (uint8_t)fc_look_mix(m[vat], ((e0 >> 16) + (e1 >> 16) + 1) >> 1, take, keep);
    }
#endif
}

/// `fc_look_sites422_body` for YUY2 (`uyvy` 0) or UYVY, mixed or not, each compiled on its own.
static inline
void fc_look_sites422(uint8_t *row, int uyvy, int sites, const uint8_t *table, int32_t take, int32_t keep) {
    if (uyvy) {
        if (take == 1024) fc_look_sites422_body(row, 1, 3, 0, 2, sites, table, 1024, 0);
        else fc_look_sites422_body(row, 1, 3, 0, 2, sites, table, take, keep);
    } else {
        if (take == 1024) fc_look_sites422_body(row, 0, 2, 1, 3, sites, table, 1024, 0);
        else fc_look_sites422_body(row, 0, 2, 1, 3, sites, table, take, keep);
    }
}

#endif
