// Fixed-base multiplication for the Groth16 setup, per element: the code one
// device thread runs, written once for two builds. pl_fixed_base.cuh wraps
// it in kernels (sppark's device field types); pl_fb_host.cpp runs it on the
// host with blst's host field types, so tests on a machine without a GPU
// check this very code against the CPU backend. What only the device build
// exercises: sppark's device arithmetic, launches, streams and transfers.
//
// The host precomputes, for each w-bit window i, the affine multiples
// k * 2^(w i) * g for k in 1..=2^(w-1); a scalar then costs one mixed
// addition per window, its signed digit choosing the row entry (negated for a
// negative digit), into an XYZZ accumulator (ZZ^3 = ZZZ^2). Normalization is
// a Montgomery batch inversion over a strided run of points per thread.
#ifndef PL_FB_MATH_CUH
#define PL_FB_MATH_CUH

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ff/bls12-381.hpp>

// Internal linkage throughout: the two builds end up in one library.
#if defined(__CUDACC__)
#define PL_HD static __host__ __device__ __forceinline__
#define PL_HD_NOINLINE static __host__ __device__ __noinline__
#else
#define PL_HD static inline
#define PL_HD_NOINLINE static
#endif

// F_p^2 = F_p[u] / (u^2 + 1), one thread per element (sppark's own fp2_t
// spreads an element over two lanes, which a per-scalar kernel cannot use).
struct pl_fp2 {
    fp_t c0, c1;
};

template<class F> struct pl_aff {
    F x, y;
};
template<class F> struct pl_xyzz {
    F x, y, zz, zzz;
};

PL_HD pl_fp2 operator+(const pl_fp2& a, const pl_fp2& b)
{
    pl_fp2 r;
    r.c0 = a.c0 + b.c0;
    r.c1 = a.c1 + b.c1;
    return r;
}
PL_HD pl_fp2 operator-(const pl_fp2& a, const pl_fp2& b)
{
    pl_fp2 r;
    r.c0 = a.c0 - b.c0;
    r.c1 = a.c1 - b.c1;
    return r;
}
PL_HD pl_fp2 operator*(const pl_fp2& a, const pl_fp2& b)
{
    // Karatsuba: three base-field products.
    fp_t t0 = a.c0 * b.c0;
    fp_t t1 = a.c1 * b.c1;
    fp_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    pl_fp2 r;
    r.c0 = t0 - t1;
    r.c1 = t2 - t0 - t1;
    return r;
}

PL_HD fp_t pl_sq(const fp_t& a) { return a * a; }
PL_HD pl_fp2 pl_sq(const pl_fp2& a)
{
    // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u
    fp_t m = a.c0 * a.c1;
    pl_fp2 r;
    r.c0 = (a.c0 + a.c1) * (a.c0 - a.c1);
    r.c1 = m + m;
    return r;
}
PL_HD bool pl_is_zero(const fp_t& a) { return a.is_zero(); }
PL_HD bool pl_is_zero(const pl_fp2& a) { return a.c0.is_zero() && a.c1.is_zero(); }
PL_HD void pl_set_one(fp_t& a) { a = fp_t::one(); }
PL_HD void pl_set_one(pl_fp2& a)
{
    a.c0 = fp_t::one();
    a.c1.zero();
}
PL_HD void pl_set_zero(fp_t& a) { a.zero(); }
PL_HD void pl_set_zero(pl_fp2& a)
{
    a.c0.zero();
    a.c1.zero();
}
PL_HD fp_t pl_neg(const fp_t& a) { return -a; }
PL_HD pl_fp2 pl_neg(const pl_fp2& a)
{
    pl_fp2 r;
    r.c0 = -a.c0;
    r.c1 = -a.c1;
    return r;
}

// p - 2 for BLS12-381's base field, little-endian 32-bit limbs.
#define PL_P_MINUS_2_LIMBS                                                  \
    {0xffffaaa9, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0, \
     0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea}
#if defined(__CUDACC__)
__constant__ uint32_t PL_P_MINUS_2_DEV[12] = PL_P_MINUS_2_LIMBS;
#endif
static const uint32_t PL_P_MINUS_2_HOST[12] = PL_P_MINUS_2_LIMBS;

// a^(p-2) = 1/a (0 for 0), square and multiply; the exponent is the same for
// every thread, so the branches are uniform across a warp.
PL_HD_NOINLINE fp_t pl_inv(const fp_t& a)
{
#ifdef __CUDA_ARCH__
    const uint32_t* exp = PL_P_MINUS_2_DEV;
#else
    const uint32_t* exp = PL_P_MINUS_2_HOST;
#endif
    fp_t r = fp_t::one();
    bool started = false;
    for (int i = 11; i >= 0; i--) {
        uint32_t e = exp[i];
        for (int b = 31; b >= 0; b--) {
            if (started)
                r = r * r;
            if ((e >> b) & 1) {
                if (started)
                    r = r * a;
                else
                    r = a;
                started = true;
            }
        }
    }
    return r;
}
PL_HD pl_fp2 pl_inv(const pl_fp2& a)
{
    // 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2)
    fp_t d = pl_inv(a.c0 * a.c0 + a.c1 * a.c1);
    pl_fp2 r;
    r.c0 = a.c0 * d;
    r.c1 = -(a.c1 * d);
    return r;
}

// acc = 2 * (x, y) for an affine point (dbl-2008-s-1 with Z = 1, a = 0).
template<class F>
PL_HD void pl_mdbl(pl_xyzz<F>& acc, const F& x, const F& y)
{
    F u = y + y;
    F v = pl_sq(u);
    F w = u * v;
    F s = x * v;
    F x2 = pl_sq(x);
    F m = x2 + x2 + x2;
    acc.x = pl_sq(m) - s - s;
    acc.y = m * (s - acc.x) - w * y;
    acc.zz = v;
    acc.zzz = w;
}

// acc += (x, y) (madd-2008-s), with the equal and opposite cases handled;
// `inf` marks an accumulator at infinity.
template<class F>
PL_HD void pl_madd(pl_xyzz<F>& acc, bool& inf, const F& x, const F& y)
{
    if (inf) {
        acc.x = x;
        acc.y = y;
        pl_set_one(acc.zz);
        pl_set_one(acc.zzz);
        inf = false;
        return;
    }
    F p = x * acc.zz - acc.x;
    F r = y * acc.zzz - acc.y;
    if (pl_is_zero(p)) {
        if (pl_is_zero(r))
            pl_mdbl(acc, x, y);
        else
            inf = true;
        return;
    }
    F pp = pl_sq(p);
    F ppp = p * pp;
    F q = acc.x * pp;
    F x3 = pl_sq(r) - ppp - q - q;
    acc.y = r * (q - x3) - acc.y * ppp;
    acc.x = x3;
    acc.zz = acc.zz * pp;
    acc.zzz = acc.zzz * ppp;
}

// The canonical (out of Montgomery form) scalar as eight 32-bit limbs.
PL_HD void pl_scalar_limbs(const fr_t& mont, uint32_t limb[8])
{
    fr_t s = mont;
    s.from();
#ifdef __CUDA_ARCH__
    for (int k = 0; k < 8; k++)
        limb[k] = s[k];
#else
    // blst's host type keeps its limbs private: read its little-endian bytes.
    static_assert(sizeof(fr_t) == 32, "fr_t is 32 bytes");
    unsigned char b[32];
    std::memcpy(b, &s, 32);
    for (int k = 0; k < 8; k++)
        limb[k] = (uint32_t)b[4 * k] | (uint32_t)b[4 * k + 1] << 8 | (uint32_t)b[4 * k + 2] << 16 |
                  (uint32_t)b[4 * k + 3] << 24;
#endif
}

// scalar * g in XYZZ (ZZ = ZZZ = 0 at infinity). `table` holds `windows`
// rows of 2^(wbits-1) affine points; the scalar is in Montgomery form.
template<class F>
PL_HD pl_xyzz<F> pl_fb_mul_one(const pl_aff<F>* table, uint32_t wbits, uint32_t windows,
                               const fr_t& scalar)
{
    uint32_t limb[8];
    pl_scalar_limbs(scalar, limb);
    const uint32_t half = 1u << (wbits - 1);
    const int32_t full = 1 << wbits;
    pl_xyzz<F> acc;
    bool inf = true;
    uint32_t carry = 0;
    for (uint32_t win = 0; win < windows; win++) {
        uint32_t bit = win * wbits, at = bit >> 5, off = bit & 31;
        uint64_t v = at < 8 ? limb[at] : 0;
        if (at + 1 < 8)
            v |= (uint64_t)limb[at + 1] << 32;
        int32_t d = (int32_t)((v >> off) & (uint64_t)(full - 1)) + (int32_t)carry;
        carry = 0;
        if (d > (int32_t)half) {
            d -= full;
            carry = 1;
        }
        if (d == 0)
            continue;
        const pl_aff<F>* p = table + (size_t)win * half + (uint32_t)(d < 0 ? -d : d) - 1;
        F y = p->y;
        if (d < 0)
            y = pl_neg(y);
        pl_madd(acc, inf, p->x, y);
    }
    if (inf) {
#ifndef __CUDA_ARCH__
        // x and y are never read at infinity; the host build clears them so
        // no indeterminate value is copied (on the device clearing them too
        // costs the G2 kernel 250 more bytes of register spills).
        pl_set_zero(acc.x);
        pl_set_zero(acc.y);
#endif
        pl_set_zero(acc.zz);
        pl_set_zero(acc.zzz);
    }
    return acc;
}

// XYZZ to affine for points t, t + T, t + 2T, ... of `in` (the share of one
// of T threads, so a warp touches neighbouring points): prefix products of
// the nonzero ZZZ go into out[j].x, one inversion, then back to front.
// Infinity is written as blst's affine infinity, all-zero x and y.
template<class F>
PL_HD void pl_fb_norm_one(const pl_xyzz<F>* in, size_t n, size_t t, size_t T, pl_aff<F>* out)
{
    if (t >= n)
        return;
    F acc;
    pl_set_one(acc);
    size_t last = t;
    for (size_t j = t; j < n; j += T) {
        F zzz = in[j].zzz;
        if (!pl_is_zero(zzz)) {
            out[j].x = acc;
            acc = acc * zzz;
        }
        last = j;
    }
    F inv = pl_inv(acc);
    for (size_t j = last + T; j >= t + T;) {
        j -= T;
        pl_xyzz<F> p = in[j];
        pl_aff<F> a;
        if (pl_is_zero(p.zzz)) {
            pl_set_zero(a.x);
            pl_set_zero(a.y);
        } else {
            F iz3 = inv * out[j].x; // 1 / ZZZ_j
            inv = inv * p.zzz;
            F iz = iz3 * p.zz; // 1 / Z_j
            a.x = p.x * pl_sq(iz);
            a.y = p.y * iz3;
        }
        out[j] = a;
    }
}

// Why a request cannot run, or nullptr (checked by both builds first).
static inline const char* pl_fb_invalid(uint32_t wbits, uint32_t windows, size_t chunk)
{
    if (wbits < 2 || wbits > 16)
        return "fixed base: window bits must be in 2..=16";
    if ((size_t)windows * wbits < 256)
        return "fixed base: the windows do not cover 256 bits";
    if (chunk == 0)
        return "fixed base: the chunk size must be at least 1";
    return nullptr;
}

#endif
