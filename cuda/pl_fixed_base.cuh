// Fixed-base batch scalar multiplication for the Groth16 setup on the
// device: every query point is scalar * g for one of two generators. The
// per-element code (signed windows, XYZZ accumulation, batch inversion) is in
// pl_fb_math.cuh, shared with the host build in pl_fb_host.cpp.
//
// Per chunk of scalars, on one of two streams:
//   pl_fb_mul   one thread per scalar (pl_fb_mul_one)
//   pl_fb_norm  one thread per strided run of points (pl_fb_norm_one)
// Chunks alternate between two streams and buffer sets, so one chunk's
// copy back overlaps the next chunk's kernels.
#ifndef PL_FIXED_BASE_CUH
#define PL_FIXED_BASE_CUH

#include "pl_fb_math.cuh"

template<class F>
__global__ void __launch_bounds__(128) pl_fb_mul(const pl_aff<F>* __restrict__ table,
                                                 uint32_t wbits, uint32_t windows,
                                                 const fr_t* __restrict__ scalars, size_t n,
                                                 pl_xyzz<F>* __restrict__ out)
{
    size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    if (i < n)
        out[i] = pl_fb_mul_one<F>(table, wbits, windows, scalars[i]);
}

template<class F>
__global__ void __launch_bounds__(128) pl_fb_norm(const pl_xyzz<F>* __restrict__ in, size_t n,
                                                  pl_aff<F>* __restrict__ out)
{
    size_t t = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    size_t T = (size_t)blockDim.x * gridDim.x;
    pl_fb_norm_one<F>(in, n, t, T, out);
}

// The whole batch for one curve group: table upload, chunks of `chunk`
// scalars (the caller's choice, bounding device memory) over two streams,
// spans fb_h2d / fb_mul / fb_norm / fb_d2h per chunk (lane = stream), and
// the table upload as fb_table.
template<class F>
static void pl_fixed_base_run(const gpu_t& gpu, pl_timer& t, const void* table_affine,
                              uint32_t wbits, uint32_t windows, const void* scalars_mont,
                              size_t n, size_t chunk, void* out_affine)
{
    typedef pl_aff<F> aff;
    typedef pl_xyzz<F> xyzz;
    if (const char* why = pl_fb_invalid(wbits, windows, chunk))
        throw cuda_error{22, why};
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
