// H = (A*B - C) / Z on the device with sppark's NTT: iNTT of a, b, c;
// NTT on the coset; the quotient on the coset; coset iNTT. The result
// (coefficients of H, natural order) stays on the device for the H MSM.
#ifndef PL_NTT_H_CUH
#define PL_NTT_H_CUH

__global__ void pl_quotient(fr_t* a, const fr_t* b, const fr_t* c, fr_t z_inv, size_t n)
{
    size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    for (; i < n; i += (size_t)blockDim.x * gridDim.x) {
        fr_t t = a[i] * b[i];
        t -= c[i];
        a[i] = t * z_inv;
    }
}

// d_abc holds 3 << lg_n elements; on return the first 1 << lg_n are H's
// coefficients. a, b, c have `len` <= 1 << lg_n evaluations each.
static void pl_h_device(const gpu_t& gpu, fr_t* d_abc, const fr_t* a, const fr_t* b,
                        const fr_t* c, size_t len, uint32_t lg_n, const fr_t& z_inv,
                        pl_timer& t, uint32_t part)
{
    size_t n = (size_t)1 << lg_n;
    if (len > n)
        throw cuda_error{22, "a/b/c longer than the NTT domain"};
    stream_t& s = gpu[0];
    fr_t* d[3] = {d_abc, d_abc + n, d_abc + 2 * n};
    const fr_t* h[3] = {a, b, c};
    auto all = t.begin_device("ntt_h", "", part, 0, s);

    auto sp = t.begin_device("h2d", "ntt_h", part, 0, s);
    for (int k = 0; k < 3; k++) {
        s.HtoD(d[k], h[k], len);
        if (len < n)
            s.bzero(d[k] + len, n - len);
    }
    t.end_device(sp, s, 3 * len);

    sp = t.begin_device("intt", "ntt_h", part, 0, s);
    for (int k = 0; k < 3; k++)
        NTT::Base_dev_ptr(s, d[k], lg_n, NTT::InputOutputOrder::NR,
                          NTT::Direction::inverse, NTT::Type::standard);
    t.end_device(sp, s, 3 * n);

    sp = t.begin_device("coset_ntt", "ntt_h", part, 0, s);
    for (int k = 0; k < 3; k++)
        NTT::Base_dev_ptr(s, d[k], lg_n, NTT::InputOutputOrder::RN,
                          NTT::Direction::forward, NTT::Type::coset);
    pl_quotient<<<gpu.sm_count() * 2, 512, 0, s>>>(d[0], d[1], d[2], z_inv, n);
    CUDA_OK(cudaGetLastError());
    t.end_device(sp, s, 3 * n);

    sp = t.begin_device("coset_intt", "ntt_h", part, 0, s);
    NTT::Base_dev_ptr(s, d[0], lg_n, NTT::InputOutputOrder::NN,
                      NTT::Direction::inverse, NTT::Type::coset);
    t.end_device(sp, s, n);
    t.end_device(all, s, n);
}

#endif
