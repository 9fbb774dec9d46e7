#ifndef FC_COLOUR_MATRIX_ROWS_H
#define FC_COLOUR_MATRIX_ROWS_H
// A colour matrix on a 4:2:0 row pair, clamped in R'G'B' (YUVColourMatrix.swift): per pixel,
// its luma and its site's chroma to R'G'B' through the matrix, each channel clamped, back
// to luma; the site's chroma from the mean of its four clamped R'G'B'. Swift's per-site
// loop did not vectorize (I420 at 720p ran at a sixth of YUY2's speed); this plain loop
// over the sites does.
#include <stddef.h>
#include <stdint.h>

#define FC_CM_CH(x) ((x) < 0 ? 0 : (x) > 261120 ? 261120 : (x))
#define FC_CM_BYTE(x) ((uint8_t)((x) < 0 ? 0 : (x) > 255 ? 255 : (x)))

/// One row pair; `uvStep` a constant once inlined (the loop then vectorizes: each row's
/// luma pairs and NV12's chroma pairs are interleaved loads and stores the vectorizer takes).
static inline __attribute__((always_inline))
void fc_colour_matrix_420_step(uint8_t *restrict top, uint8_t *restrict bottom, uint8_t *restrict u,
                               uint8_t *restrict v, ptrdiff_t sites, const int uvStep, const int32_t *k) {
    const int32_t ry = k[0], ru = k[1], rv = k[2], ro = k[3];
    const int32_t gy = k[4], gu = k[5], gv = k[6], go = k[7];
    const int32_t by = k[8], bu = k[9], bv = k[10], bo = k[11];
    const int32_t yr = k[12], yg = k[13], yb = k[14], yo = k[15];
    const int32_t ur = k[16], ug = k[17], ub = k[18], uo = k[19];
    const int32_t vr = k[20], vg = k[21], vb = k[22], vo = k[23];
    for (ptrdiff_t i = 0; i < sites; i++) {
        const int32_t cu = (int32_t)u[i * uvStep] - 128, cv = (int32_t)v[i * uvStep] - 128;
        const int32_t cr = ru * cu + rv * cv + ro, cg = gu * cu + gv * cv + go, cb = bu * cu + bv * cv + bo;
        const int32_t l0 = top[2 * i], l1 = top[2 * i + 1], l2 = bottom[2 * i], l3 = bottom[2 * i + 1];
        const int32_t r0 = FC_CM_CH(ry * l0 + cr), g0 = FC_CM_CH(gy * l0 + cg), b0 = FC_CM_CH(by * l0 + cb);
        const int32_t r1 = FC_CM_CH(ry * l1 + cr), g1 = FC_CM_CH(gy * l1 + cg), b1 = FC_CM_CH(by * l1 + cb);
        const int32_t r2 = FC_CM_CH(ry * l2 + cr), g2 = FC_CM_CH(gy * l2 + cg), b2 = FC_CM_CH(by * l2 + cb);
        const int32_t r3 = FC_CM_CH(ry * l3 + cr), g3 = FC_CM_CH(gy * l3 + cg), b3 = FC_CM_CH(by * l3 + cb);
        const int32_t y0 = (yr * r0 + yg * g0 + yb * b0 + yo) >> 20, y1 = (yr * r1 + yg * g1 + yb * b1 + yo) >> 20;
        const int32_t y2 = (yr * r2 + yg * g2 + yb * b2 + yo) >> 20, y3 = (yr * r3 + yg * g3 + yb * b3 + yo) >> 20;
        top[2 * i] = FC_CM_BYTE(y0);
        top[2 * i + 1] = FC_CM_BYTE(y1);
        bottom[2 * i] = FC_CM_BYTE(y2);
        bottom[2 * i + 1] = FC_CM_BYTE(y3);
        const int32_t sr = (r0 + r1 + r2 + r3 + 2) >> 2, sg = (g0 + g1 + g2 + g3 + 2) >> 2, sb = (b0 + b1 + b2 + b3 + 2) >> 2;
        const int32_t nu = (ur * sr + ug * sg + ub * sb + uo) >> 20, nv = (vr * sr + vg * sg + vb * sb + vo) >> 20;
        u[i * uvStep] = FC_CM_BYTE(nu);
        v[i * uvStep] = FC_CM_BYTE(nv);
    }
}

/// `k`: 24 coefficients, the Swift side's toRGB (rows R, G, B of [y, u-128, v-128, offset],
/// x 1024) then toYUV (rows Y, U, V of [r, g, b, offset + 1/2], x 2^20 over channels x 1024).
/// `uvStep` is 1 (I420: `u`, `v` separate planes) or 2 (NV12: `v` is `u + 1`).
static inline
void fc_colour_matrix_420(uint8_t *top, uint8_t *bottom, uint8_t *u, uint8_t *v,
                          ptrdiff_t sites, int uvStep, const int32_t *k) {
    if (uvStep == 1) fc_colour_matrix_420_step(top, bottom, u, v, sites, 1, k);
    else fc_colour_matrix_420_step(top, bottom, u, v, sites, 2, k);
}
#undef FC_CM_CH
#undef FC_CM_BYTE

#endif
