// The fixed-base code of the setup (pl_fb_math.cuh) built for the host with
// blst's host field types: the same per-element functions the device kernels
// run, driven chunk by chunk as pl_fixed_base_run drives them, with each
// chunk's normalization split into strided runs as the device's threads
// split it. Tests run it against the CPU backend where no GPU is present.
#include <exception>
#include <new>
#include <vector>

#include "pl_fb_math.cuh"
#include "pl_result.h"

static_assert(sizeof(pl_aff<fp_t>) == 96, "G1 affine layout");
static_assert(sizeof(pl_aff<pl_fp2>) == 192, "G2 affine layout");

template<class F>
static pl_error pl_fb_host(const void* table_affine, uint32_t wbits, uint32_t windows,
                           const void* scalars_mont, size_t n, size_t chunk, size_t threads,
                           void* out_affine)
{
    if (const char* why = pl_fb_invalid(wbits, windows, chunk))
        return pl_fail(22, why);
    if (threads == 0)
        return pl_fail(22, "fixed base (host): threads must be at least 1");
    try {
        const pl_aff<F>* table = (const pl_aff<F>*)table_affine;
        const fr_t* sc = (const fr_t*)scalars_mont;
        pl_aff<F>* out = (pl_aff<F>*)out_affine;
        std::vector<pl_xyzz<F>> proj(chunk < n ? chunk : n);
        for (size_t lo = 0; lo < n; lo += chunk) {
            size_t len = n - lo < chunk ? n - lo : chunk;
            for (size_t i = 0; i < len; i++)
                proj[i] = pl_fb_mul_one<F>(table, wbits, windows, sc[lo + i]);
            size_t T = threads < len ? threads : len;
            for (size_t t = 0; t < T; t++)
                pl_fb_norm_one<F>(proj.data(), len, t, T, out + lo);
        }
        return pl_ok();
    } catch (const std::bad_alloc&) {
        return pl_fail(12, "host memory allocation failed");
    } catch (const std::exception& e) {
        return pl_fail(-1, std::string("C++ exception: ") + e.what());
    }
}

extern "C" {

pl_error pl_fixed_base_host_g1(const void* table, uint32_t wbits, uint32_t windows,
                               const void* scalars, size_t n, size_t chunk, size_t threads,
                               void* out)
{
    return pl_fb_host<fp_t>(table, wbits, windows, scalars, n, chunk, threads, out);
}

pl_error pl_fixed_base_host_g2(const void* table, uint32_t wbits, uint32_t windows,
                               const void* scalars, size_t n, size_t chunk, size_t threads,
                               void* out)
{
    return pl_fb_host<pl_fp2>(table, wbits, windows, scalars, n, chunk, threads, out);
}

} // extern "C"
