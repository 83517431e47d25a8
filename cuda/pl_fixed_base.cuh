// Fixed-base batch scalar multiplication for the Groth16 setup: every query
// point is scalar * g for one of two generators. The host precomputes, for
// each w-bit window i, the affine multiples k * 2^(w i) * g for k in
// 1..=2^(w-1); a scalar then costs one mixed addition per window, with its
// signed digit choosing the row entry (negated for a negative digit).
//
// Per chunk of scalars, on one of two streams:
//   pl_fb_mul   one thread per scalar: out of Montgomery form, signed-window
//               recoding on the fly, XYZZ accumulator (ZZ^3 = ZZZ^2).
//   pl_fb_norm  one thread per strided run of points: Montgomery batch
//               inversion of the ZZZ coordinates (one Fermat inversion per
//               thread), then x = X (ZZ/ZZZ)^2, y = Y / ZZZ; infinity is
//               written as blst's affine infinity, all-zero x and y.
// Chunks alternate between two streams and buffer sets, so one chunk's
// copy back overlaps the next chunk's kernels.
#ifndef PL_FIXED_BASE_CUH
#define PL_FIXED_BASE_CUH

#include <ff/bls12-381.hpp>

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

// p - 2 for BLS12-381's base field, little-endian 32-bit limbs.
__constant__ uint32_t PL_P_MINUS_2[12] = {
    0xffffaaa9, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0,
    0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};

// Device arithmetic (the host pass sees blst's host-side field type instead).
#ifdef __CUDA_ARCH__

__device__ __forceinline__ pl_fp2 operator+(const pl_fp2& a, const pl_fp2& b)
{
    pl_fp2 r;
    r.c0 = a.c0 + b.c0;
    r.c1 = a.c1 + b.c1;
    return r;
}
__device__ __forceinline__ pl_fp2 operator-(const pl_fp2& a, const pl_fp2& b)
{
    pl_fp2 r;
    r.c0 = a.c0 - b.c0;
    r.c1 = a.c1 - b.c1;
    return r;
}
__device__ __forceinline__ pl_fp2 operator*(const pl_fp2& a, const pl_fp2& b)
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

__device__ __forceinline__ fp_t pl_sq(const fp_t& a) { return a * a; }
__device__ __forceinline__ pl_fp2 pl_sq(const pl_fp2& a)
{
    // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u
    fp_t m = a.c0 * a.c1;
    pl_fp2 r;
    r.c0 = (a.c0 + a.c1) * (a.c0 - a.c1);
    r.c1 = m + m;
    return r;
}
__device__ __forceinline__ bool pl_is_zero(const fp_t& a) { return a.is_zero(); }
__device__ __forceinline__ bool pl_is_zero(const pl_fp2& a) { return a.c0.is_zero() && a.c1.is_zero(); }
__device__ __forceinline__ void pl_set_one(fp_t& a) { a = fp_t::one(); }
__device__ __forceinline__ void pl_set_one(pl_fp2& a)
{
    a.c0 = fp_t::one();
    a.c1.zero();
}
__device__ __forceinline__ void pl_set_zero(fp_t& a) { a.zero(); }
__device__ __forceinline__ void pl_set_zero(pl_fp2& a)
{
    a.c0.zero();
    a.c1.zero();
}
__device__ __forceinline__ fp_t pl_neg(const fp_t& a) { return -a; }
__device__ __forceinline__ pl_fp2 pl_neg(const pl_fp2& a)
{
    pl_fp2 r;
    r.c0 = -a.c0;
    r.c1 = -a.c1;
    return r;
}

// a^(p-2) = 1/a (0 for 0), square and multiply; the exponent is the same for
// every thread, so the branches are uniform across a warp.
__device__ __noinline__ fp_t pl_inv(const fp_t& a)
{
    fp_t r = fp_t::one();
    bool started = false;
    for (int i = 11; i >= 0; i--) {
        uint32_t e = PL_P_MINUS_2[i];
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
__device__ __forceinline__ pl_fp2 pl_inv(const pl_fp2& a)
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
__device__ __forceinline__ void pl_mdbl(pl_xyzz<F>& acc, const F& x, const F& y)
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
__device__ __forceinline__ void pl_madd(pl_xyzz<F>& acc, bool& inf, const F& x, const F& y)
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

#endif // __CUDA_ARCH__

// out[i] = scalars[i] * g, XYZZ (ZZ = ZZZ = 0 at infinity). `table` holds
// `windows` rows of 2^(wbits-1) affine points; scalars are Montgomery form.
template<class F>
__global__ void __launch_bounds__(128) pl_fb_mul(const pl_aff<F>* __restrict__ table,
                                                 uint32_t wbits, uint32_t windows,
                                                 const fr_t* __restrict__ scalars, size_t n,
                                                 pl_xyzz<F>* __restrict__ out)
{
    size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    if (i >= n)
        return;
    fr_t s = scalars[i];
    s.from();
    uint32_t limb[8];
    for (int k = 0; k < 8; k++)
        limb[k] = s[k];
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
        pl_set_zero(acc.zz);
        pl_set_zero(acc.zzz);
    }
    out[i] = acc;
}

// XYZZ to affine. Thread t takes points t, t + T, t + 2T, ... (T threads in
// all, so a warp touches neighbouring points): prefix products of the
// nonzero ZZZ go into out[j].x, one inversion, then back to front.
template<class F>
__global__ void __launch_bounds__(128) pl_fb_norm(const pl_xyzz<F>* __restrict__ in, size_t n,
                                                  pl_aff<F>* __restrict__ out)
{
    size_t t = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    size_t T = (size_t)blockDim.x * gridDim.x;
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
    for (size_t j = last + T; j >= t + T; ) {
        j -= T;
        pl_xyzz<F> p = in[j];
        pl_aff<F> a;
        if (pl_is_zero(p.zzz)) {
            pl_set_zero(a.x);
            pl_set_zero(a.y);
        } else {
            F iz3 = inv * out[j].x;     // 1 / ZZZ_j
            inv = inv * p.zzz;
            F iz = iz3 * p.zz;          // 1 / Z_j
            a.x = p.x * pl_sq(iz);
            a.y = p.y * iz3;
        }
        out[j] = a;
    }
}

// Scalars per chunk: bounded device memory whatever the batch size.
static size_t pl_fb_chunk(size_t point_bytes)
{
    return point_bytes > sizeof(pl_aff<fp_t>) ? ((size_t)1 << 21) : ((size_t)1 << 22);
}

// The whole batch for one curve group: table upload, chunks over two
// streams, spans fb_h2d / fb_mul / fb_norm / fb_d2h per chunk (lane =
// stream), and the table upload as fb_table.
template<class F>
static void pl_fixed_base_run(const gpu_t& gpu, pl_timer& t, const void* table_affine,
                              uint32_t wbits, uint32_t windows, const void* scalars_mont,
                              size_t n, void* out_affine)
{
    typedef pl_aff<F> aff;
    typedef pl_xyzz<F> xyzz;
    if (wbits < 2 || wbits > 16)
        throw cuda_error{22, "fixed base: window bits must be in 2..=16"};
    if ((size_t)windows * wbits < 256)
        throw cuda_error{22, "fixed base: the windows do not cover 256 bits"};
    if (n == 0)
        return;
    stream_t* st[2] = {&gpu[0], &gpu[1]};
    size_t rows = (size_t)windows << (wbits - 1);
    dev_ptr_t<aff> d_table{rows};
    auto sp = t.begin_device("fb_table", "", 0, 0, *st[0]);
    CUDA_OK(cudaMemcpyAsync(d_table.data(), table_affine, rows * sizeof(aff),
                            cudaMemcpyHostToDevice, *st[0]));
    t.end_device(sp, *st[0], rows);
    CUDA_OK(cudaStreamSynchronize(*st[0]));

    size_t chunk = pl_fb_chunk(sizeof(aff));
    if (chunk > n)
        chunk = n;
    dev_ptr_t<fr_t> sc0{chunk}, sc1{chunk};
    dev_ptr_t<xyzz> proj0{chunk}, proj1{chunk};
    dev_ptr_t<aff> out0{chunk}, out1{chunk};
    fr_t* d_sc[2] = {sc0.data(), sc1.data()};
    xyzz* d_proj[2] = {proj0.data(), proj1.data()};
    aff* d_out[2] = {out0.data(), out1.data()};
    const fr_t* sc = (const fr_t*)scalars_mont;
    aff* out = (aff*)out_affine;
    size_t nchunks = (n + chunk - 1) / chunk;
    uint32_t sms = gpu.sm_count();

    auto compute = [&](size_t c) {
        size_t lo = c * chunk, len = (n - lo < chunk) ? n - lo : chunk;
        int b = (int)(c & 1);
        stream_t& s = *st[b];
        auto s1 = t.begin_device("fb_h2d", "", (uint32_t)c, b, s);
        CUDA_OK(cudaMemcpyAsync(d_sc[b], sc + lo, len * sizeof(fr_t),
                                cudaMemcpyHostToDevice, s));
        t.end_device(s1, s, len);
        auto s2 = t.begin_device("fb_mul", "", (uint32_t)c, b, s);
        pl_fb_mul<F><<<(unsigned)((len + 127) / 128), 128, 0, s>>>(
            d_table.data(), wbits, windows, d_sc[b], len, d_proj[b]);
        CUDA_OK(cudaGetLastError());
        t.end_device(s2, s, len, wbits);
        size_t threads = (size_t)sms * 512;
        if (threads > len)
            threads = len;
        auto s3 = t.begin_device("fb_norm", "", (uint32_t)c, b, s);
        pl_fb_norm<F><<<(unsigned)((threads + 127) / 128), 128, 0, s>>>(
            d_proj[b], len, d_out[b]);
        CUDA_OK(cudaGetLastError());
        t.end_device(s3, s, len);
    };
    // Chunk c + 1 is queued before chunk c is copied back, so the copy
    // (synchronous for pageable memory) overlaps the next chunk's kernels.
    compute(0);
    for (size_t c = 0; c < nchunks; c++) {
        if (c + 1 < nchunks) {
            // Its buffers were last used by chunk c - 1, whose copy is done.
            compute(c + 1);
        }
        size_t lo = c * chunk, len = (n - lo < chunk) ? n - lo : chunk;
        int b = (int)(c & 1);
        stream_t& s = *st[b];
        auto s4 = t.begin_device("fb_d2h", "", (uint32_t)c, b, s);
        CUDA_OK(cudaMemcpyAsync(out + lo, d_out[b], len * sizeof(aff),
                                cudaMemcpyDeviceToHost, s));
        t.end_device(s4, s, len);
        CUDA_OK(cudaStreamSynchronize(s));
    }
}

#endif
