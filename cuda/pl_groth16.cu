// phaseline's GPU Groth16 pipeline on sppark (BLS12-381): one extern "C"
// entry point per operation, each returning a pl_error. The device work of a
// call is serialized by one mutex; timings go to the caller's pl_phases.

#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include <ff/bls12-381.hpp>
#include <ff/bls12-381-fp2.hpp>
#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>

typedef jacobian_t<fp_t> point_t;
typedef xyzz_t<fp_t> bucket_t;
typedef bucket_t::affine_t affine_t;
typedef fr_t scalar_t;

#include <msm/pippenger.cuh>
#include <ntt/ntt.cuh>

#include "pl_error.cuh"
#include "pl_timing.cuh"
#include "pl_pin.cuh"
#include "pl_msm.cuh"
#include "pl_ntt_h.cuh"
#include "pl_fixed_base.cuh"

static std::mutex pl_mutex;

// The device, with this thread's stale last error (if any) cleared.
static const gpu_t& pl_gpu()
{
    if (ngpus() == 0) {
        int n = 0;
        cudaError_t e = cudaGetDeviceCount(&n);
        std::string why = e == cudaSuccess ? "no device of compute capability 7.0 or newer"
                                           : cudaGetErrorString(e);
        (void)cudaGetLastError();
        throw cuda_error{100, "no CUDA device: " + why};
    }
    const gpu_t& gpu = select_gpu(0);
    (void)cudaGetLastError();
    return gpu;
}

// Drains the device after a failure and clears this thread's last error (a
// failed cudaMalloc leaves one that the next launch check would report), so
// the next call starts clean.
static void pl_quiesce()
{
    try {
        if (ngpus() > 0)
            select_gpu(0).sync();
    } catch (...) {
    }
    (void)cudaGetLastError();
}

#define PL_ENTRY_CATCH                                                    \
    } catch (const cuda_error& e) {                                       \
        pl_quiesce();                                                     \
        return pl_fail(e.code(), e.what());                               \
    } catch (const std::bad_alloc&) {                                     \
        pl_quiesce();                                                     \
        return pl_fail(12, "host memory allocation failed");              \
    } catch (const std::exception& e) {                                   \
        pl_quiesce();                                                     \
        return pl_fail(-1, std::string("C++ exception: ") + e.what());    \
    } catch (...) {                                                       \
        pl_quiesce();                                                     \
        return pl_fail(-1, "unknown C++ exception");                      \
    }

template<class P>
static void pl_store(void* out, size_t i, const P& p)
{
    std::memcpy((char*)out + i * sizeof(P), &p, sizeof(P));
}

static void pl_inject(const pl_opts& o)
{
    if (o.inject_alloc_bytes) {
        dev_ptr_t<uint8_t> probe{o.inject_alloc_bytes};
        (void)probe;
    }
}

// The body of pl_fixed_base_g1 / _g2 (F: the group's base field).
template<class F>
static pl_error pl_fixed_base_entry(const void* table, uint32_t wbits, uint32_t windows,
                                    const void* scalars, size_t n, size_t chunk, void* out,
                                    pl_phases* phases)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    pl_timer t{phases, gpu[0]};
    pl_fixed_base_run<F>(gpu, t, table, wbits, windows, scalars, n, chunk, out);
    gpu.sync();
    t.flush();
    return pl_ok();
    PL_ENTRY_CATCH
}

extern "C" {

void pl_free_message(char* message) { free(message); }

pl_error pl_init(char* name, size_t name_len, uint32_t* sm_count, uint64_t* mem_bytes)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    if (name && name_len) {
        std::strncpy(name, gpu.props().name, name_len - 1);
        name[name_len - 1] = 0;
    }
    if (sm_count) *sm_count = gpu.sm_count();
    if (mem_bytes) *mem_bytes = gpu.props().totalGlobalMem;
    // Build the NTT twiddle tables now rather than inside the first proof.
    NTTParameters::all(false);
    NTTParameters::all(true);
    gpu.sync();
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_mem_info(uint64_t* free_bytes, uint64_t* total_bytes)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    (void)pl_gpu();
    size_t f = 0, t = 0;
    CUDA_OK(cudaMemGetInfo(&f, &t));
    if (free_bytes) *free_bytes = f;
    if (total_bytes) *total_bytes = t;
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_points_upload(const void* host, size_t n, uint32_t group, const pl_opts* opts,
                          pl_points** out, pl_phases* phases)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    *out = nullptr;
    size_t elem;
    if (group == PL_GROUP_G1)
        elem = sizeof(pl_g1::affine);
    else if (group == PL_GROUP_G2)
        elem = sizeof(pl_g2::affine);
    else
        throw cuda_error{22, "unknown group " + std::to_string(group) + " (1: G1, 2: G2)"};
    const gpu_t& gpu = pl_gpu();
    stream_t& s = gpu[0];
    pl_timer t{phases, s};
    pl_pinned pinned;
    size_t bytes = n * elem;
    if (opts->pin) {
        auto sp = t.begin_host("pin", "", 0);
        pinned.add(host, bytes);
        t.end_host(sp, pinned.bytes());
    }
    void* d = nullptr;
    CUDA_OK(cudaMalloc(&d, bytes ? bytes : elem));
    auto sp = t.begin_device("h2d", "", 0, 0, s);
    if (n)
        CUDA_OK(cudaMemcpyAsync(d, host, bytes, cudaMemcpyHostToDevice, s));
    t.end_device(sp, s, n);
    cudaError_t e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
        (void)cudaFree(d);
        CUDA_OK(e);
    }
    if (opts->pin) {
        auto sp2 = t.begin_host("unpin", "", 0);
        pinned.release();
        t.end_host(sp2);
    }
    t.flush();
    *out = new pl_points{d, n, group};
    return pl_ok();
    PL_ENTRY_CATCH
}

void pl_points_free(pl_points* p)
{
    if (p) {
        std::lock_guard<std::mutex> lock(pl_mutex);
        (void)cudaFree(p->d);
        delete p;
    }
}

pl_error pl_ntt(void* inout, uint32_t lg_n, uint32_t inverse, uint32_t coset)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    stream_t& s = gpu[0];
    size_t n = (size_t)1 << lg_n;
    dev_ptr_t<fr_t> d{n, s};
    s.HtoD(&d[0], inout, n);
    NTT::Base_dev_ptr(s, &d[0], lg_n, NTT::InputOutputOrder::NN,
                      inverse ? NTT::Direction::inverse : NTT::Direction::forward,
                      coset ? NTT::Type::coset : NTT::Type::standard);
    s.DtoH((fr_t*)inout, &d[0], n);
    s.sync();
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_h_poly(const void* a, const void* b, const void* c, size_t len,
                   uint32_t lg_n, const void* z_inv, void* out_coeffs,
                   const pl_opts* opts, pl_phases* phases)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    stream_t& s = gpu[0];
    pl_timer t{phases, s};
    pl_inject(*opts);
    size_t n = (size_t)1 << lg_n;
    dev_ptr_t<fr_t> d_abc{3 * n, s};
    pl_h_device(gpu, &d_abc[0], (const fr_t*)a, (const fr_t*)b, (const fr_t*)c,
                len, lg_n, *(const fr_t*)z_inv, t, 0);
    s.DtoH((fr_t*)out_coeffs, &d_abc[0], n);
    s.sync();
    t.flush();
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_split_msm(const pl_points* points, const pl_split* job,
                      const pl_opts* opts, void* out, pl_phases* phases)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    pl_timer t{phases, gpu[0]};
    pl_inject(*opts);
    pl_pinned pinned;
    if (opts->pin) {
        auto sp = t.begin_host("pin", "", 0);
        pinned.add(job->ones, job->n_ones * sizeof(uint32_t));
        pinned.add(job->tail_idx, job->n_tail * sizeof(uint32_t));
        pinned.add(job->tail_scalars, job->n_tail * sizeof(fr_t));
        t.end_host(sp, pinned.bytes());
    }
    size_t shared_n = pl_shared_n(*opts, points->n);
    if (points->group == PL_GROUP_G2) {
        pl_g2::point r;
        pl_split_run<pl_g2>(r, gpu, *points, *job, *opts, shared_n, t, "msm", 0);
        gpu.sync();
        pl_store(out, 0, r);
    } else {
        pl_g1::point r;
        pl_split_run<pl_g1>(r, gpu, *points, *job, *opts, shared_n, t, "msm", 0);
        gpu.sync();
        pl_store(out, 0, r);
    }
    t.flush();
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_prove_h(const pl_points* h, const pl_abc* circuits, size_t n_circuits,
                    uint32_t lg_n, const void* z_inv, const pl_opts* opts, void* out,
                    pl_phases* phases)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    stream_t& s = gpu[0];
    pl_timer t{phases, s};
    const pl_opts& o = *opts;
    size_t n = (size_t)1 << lg_n;
    if (h->group != PL_GROUP_G1 || h->n + 1 != n)
        throw cuda_error{22, "H points must be the G1 points of the NTT domain"};
    size_t shared_n = pl_shared_n(o, n);
    const fr_t zi = *(const fr_t*)z_inv;

    pl_pinned pinned;
    if (o.pin) {
        auto sp = t.begin_host("pin", "", 0);
        for (size_t c = 0; c < n_circuits; c++) {
            size_t abc = circuits[c].len * sizeof(fr_t);
            pinned.add(circuits[c].a, abc);
            pinned.add(circuits[c].b, abc);
            pinned.add(circuits[c].c, abc);
        }
        t.end_host(sp, pinned.bytes());
    }
    dev_ptr_t<fr_t> d_abc{3 * n, s};
    pl_inject(o);
    for (size_t c = 0; c < n_circuits; c++) {
        const pl_abc& ci = circuits[c];
        uint32_t part = (uint32_t)c;
        pl_h_device(gpu, &d_abc[0], (const fr_t*)ci.a, (const fr_t*)ci.b,
                    (const fr_t*)ci.c, ci.len, lg_n, zi, t, part);
        s.sync();
        pl_g1::point r;
        uint32_t wbits = 0;
        auto sp = t.begin_device("msm_h", "", part, 2, gpu[2]);
        dev_ptr_t<fr_t> scalars{&d_abc[0]};
        pl_pippenger<pl_g1>(r, o, shared_n, pl_dev<pl_g1>(*h), h->n, scalars, wbits);
        t.end_device(sp, gpu[2], h->n, wbits);
        pl_store(out, c, r);
    }
    gpu.sync();
    if (o.pin) {
        auto sp = t.begin_host("unpin", "", 0);
        pinned.release();
        t.end_host(sp);
    }
    t.flush();
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_prove_msms(const pl_points* l, const pl_points* a, const pl_points* b_g1,
                       const pl_points* b_g2, const pl_circuit* circuits,
                       size_t n_circuits, uint64_t domain_n, const pl_opts* opts,
                       void* out_g1, void* out_g2, pl_phases* phases)
{
    PL_TRY
    std::lock_guard<std::mutex> lock(pl_mutex);
    const gpu_t& gpu = pl_gpu();
    pl_timer t{phases, gpu[0]};
    const pl_opts& o = *opts;
    if (l->group != PL_GROUP_G1 || a->group != PL_GROUP_G1 || b_g1->group != PL_GROUP_G1 ||
        b_g2->group != PL_GROUP_G2)
        throw cuda_error{22, "L, A, B_G1 must be G1 points and B_G2 G2 points"};
    size_t shared_n = pl_shared_n(o, domain_n);

    pl_pinned pinned;
    if (o.pin) {
        auto sp = t.begin_host("pin", "", 0);
        for (size_t c = 0; c < n_circuits; c++) {
            const pl_circuit& ci = circuits[c];
            for (const pl_split* j : {&ci.l, &ci.a_q, &ci.b_q}) {
                pinned.add(j->ones, j->n_ones * sizeof(uint32_t));
                pinned.add(j->tail_idx, j->n_tail * sizeof(uint32_t));
                pinned.add(j->tail_scalars, j->n_tail * sizeof(fr_t));
            }
        }
        t.end_host(sp, pinned.bytes());
    }

    // B_G2 of every circuit: the B split against the G2 points. With par-bg2
    // it is driven by a second host thread while this one drives the G1
    // work, so each side's host work (uploads of indices, sppark's host-side
    // bucket sums, waits) overlaps the other's device work; its ones go to
    // stream 1, which the G1 batch additions do not use. Without it, after
    // the G1 work of every circuit.
    auto b_g2_all = [&](pl_timer& tt, uint32_t lane_ones) {
        for (size_t c = 0; c < n_circuits; c++) {
            pl_g2::point r;
            pl_split_run<pl_g2>(r, gpu, *b_g2, circuits[c].b_q, o, shared_n, tt, "msm_b_g2",
                                (uint32_t)c, lane_ones);
            pl_store(out_g2, c, r);
        }
    };
    pl_timer t2{phases, gpu[1]};
    std::exception_ptr g2_error;
    std::thread g2_thread;
    if (o.par_bg2)
        g2_thread = std::thread([&] {
            try {
                (void)pl_gpu();
                b_g2_all(t2, 1);
            } catch (...) {
                g2_error = std::current_exception();
            }
        });
    // Joins the B_G2 thread on every path out of this scope.
    struct joiner {
        std::thread& th;
        ~joiner() { if (th.joinable()) th.join(); }
    } join_g2{g2_thread};

    pl_inject(o);
    for (size_t c = 0; c < n_circuits; c++) {
        const pl_circuit& ci = circuits[c];
        uint32_t part = (uint32_t)c;
        pl_g1::point r;
        pl_split_run<pl_g1>(r, gpu, *l, ci.l, o, shared_n, t, "msm_l", part);
        pl_store(out_g1, 3 * c + 0, r);
        pl_split_run<pl_g1>(r, gpu, *a, ci.a_q, o, shared_n, t, "msm_a", part);
        pl_store(out_g1, 3 * c + 1, r);
        pl_split_run<pl_g1>(r, gpu, *b_g1, ci.b_q, o, shared_n, t, "msm_b_g1", part);
        pl_store(out_g1, 3 * c + 2, r);
    }
    if (o.par_bg2) {
        g2_thread.join();
        if (g2_error)
            std::rethrow_exception(g2_error);
    } else {
        b_g2_all(t, 0);
    }
    gpu.sync();
    if (o.pin) {
        auto sp = t.begin_host("unpin", "", 0);
        pinned.release();
        t.end_host(sp);
    }
    t.flush();
    t2.flush();
    return pl_ok();
    PL_ENTRY_CATCH
}

pl_error pl_fixed_base_g1(const void* table, uint32_t wbits, uint32_t windows,
                          const void* scalars, size_t n, size_t chunk, void* out,
                          pl_phases* phases)
{
    return pl_fixed_base_entry<fp_t>(table, wbits, windows, scalars, n, chunk, out, phases);
}

pl_error pl_fixed_base_g2(const void* table, uint32_t wbits, uint32_t windows,
                          const void* scalars, size_t n, size_t chunk, void* out,
                          pl_phases* phases)
{
    return pl_fixed_base_entry<pl_fp2>(table, wbits, windows, scalars, n, chunk, out, phases);
}

} // extern "C"
