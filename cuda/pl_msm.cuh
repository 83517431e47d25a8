// Split MSMs over device-resident points of either group: scalars equal to 1
// are summed by sppark's batch addition, the rest go through sppark's
// Pippenger (the "tail MSM"); zeros are skipped. The same code serves G1
// (fp_t) and G2 (fp2_t, two threads per element in sppark's kernels).
// Window choice: one sppark msm_t per group and window size; with
// window-tune each MSM's window comes from its own point count, otherwise
// from one shared size.
#ifndef PL_MSM_CUH
#define PL_MSM_CUH

#include <map>

// One group's sppark types.
template<class F>
struct pl_group {
    typedef jacobian_t<F> point;
    typedef xyzz_t<F> bucket;
    typedef typename bucket::affine_t affine;
    typedef typename affine::mem_t affine_mem;
    typedef msm_t<bucket, point, affine, scalar_t> msm;
};
typedef pl_group<fp_t> pl_g1;
typedef pl_group<fp2_t> pl_g2;

struct pl_points {
    void* d;          // affine points of `group`, on the device
    size_t n;
    uint32_t group;   // PL_GROUP_G1 or PL_GROUP_G2
};

template<class G>
static typename G::affine_mem* pl_dev(const pl_points& p)
{
    return reinterpret_cast<typename G::affine_mem*>(p.d);
}

// sppark's msm_t constructor rule: window bits from the point count.
static uint32_t pl_window_bits(size_t n)
{
    size_t np = (n + WARP_SZ - 1) & ((size_t)0 - WARP_SZ);
    if (np == 0)
        return 17;
    if (np <= 192)
        return 10;
    int lg = 0;
    for (size_t v = np + np / 2; v >>= 1;)
        lg++;
    int w = lg - 8;
    if (w > 18) w = 18;
    if (w < 10) w = 10;
    return (uint32_t)w;
}

// One msm_t per group and window size, kept for the life of the process (its
// bucket memory is sized by the window). Never destroyed: msm_t's destructor
// syncs the device, which must not run during process exit. Each group's
// cache is used by one host thread at a time (G1 by the calling thread, G2
// by the calling thread or, with par-bg2, by the one B_G2 thread).
template<class G>
static typename G::msm& pl_msm_for(size_t n, uint32_t& wbits)
{
    static auto* cache = new std::map<uint32_t, typename G::msm*>();
    wbits = pl_window_bits(n);
    auto it = cache->find(wbits);
    if (it == cache->end())
        it = cache->emplace(wbits, new typename G::msm(nullptr, n)).first;
    return *it->second;
}

template<class A>
__global__ void pl_gather(A* out, const A* in, const uint32_t* idx, size_t n)
{
    size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    for (; i < n; i += (size_t)blockDim.x * gridDim.x)
        out[i] = in[idx[i]];
}

static size_t pl_shared_n(const pl_opts& o, size_t fallback)
{
    return o.shared_window_n ? o.shared_window_n : fallback;
}

// Pippenger over device points and (device or host) scalars.
template<class G, typename scalar_ptr>
static void pl_pippenger(typename G::point& out, const pl_opts& o, size_t shared_n,
                         typename G::affine_mem* d_points, size_t n, scalar_ptr scalars,
                         uint32_t& wbits)
{
    out.inf();
    typename G::msm& msm = pl_msm_for<G>(o.window_tune ? n : shared_n, wbits);
    if (n == 0)
        return;
    // Typed as the host affine type so sppark treats it as device-resident.
    dev_ptr_t<typename G::affine> pts{reinterpret_cast<typename G::affine*>(d_points)};
    pl_check(msm.invoke(out, pts, n, scalars, true));
}

// Sum of the points at `ones` (batch addition), on stream s.
template<class G>
static void pl_batch_add(typename G::point& out, const gpu_t& gpu, stream_t& s,
                         const pl_points& pts, const uint32_t* ones, size_t n_ones)
{
    typedef typename G::bucket bucket;
    out.inf();
    if (n_ones == 0)
        return;
    // One result per warp's worth of elements (WARP_SZ / degree threads each).
    uint32_t nbuckets = gpu.sm_count() * BATCH_ADD_BLOCK_SIZE / WARP_SZ;
    dev_ptr_t<uint32_t> d_idx{n_ones + 1, s};
    dev_ptr_t<typename bucket::mem_t> d_res{nbuckets, s};
    uint32_t cnt = (uint32_t)n_ones;
    s.HtoD(&d_idx[0], ones, n_ones);
    s.HtoD(&d_idx[n_ones], &cnt, 1);
    batch_addition<bucket><<<gpu.sm_count(), BATCH_ADD_BLOCK_SIZE, 0, s>>>(
        &d_res[0], (const typename G::affine_mem*)pl_dev<G>(pts), pts.n, &d_idx[0],
        d_idx[n_ones]);
    CUDA_OK(cudaGetLastError());
    std::vector<bucket> res(nbuckets);
    s.DtoH(&res[0], &d_res[0], nbuckets);
    s.sync();
    out = sum_up(res);
}

// One split MSM: batch addition of the ones on stream `s_ones`, then the
// tail Pippenger (gathered on stream `s_tail`). Spans: `parent` with
// children `batch_add` and `tail_msm`.
template<class G>
static void pl_split_run(typename G::point& out, const gpu_t& gpu, const pl_points& pts,
                         const pl_split& job, const pl_opts& o, size_t shared_n,
                         pl_timer& t, const char* parent, uint32_t part,
                         uint32_t lane_ones = 0, uint32_t lane_tail = 2)
{
    stream_t& s = gpu[lane_ones];
    auto sp_all = t.begin_device(parent, "", part, lane_ones, s);

    typename G::point ones;
    auto sp = t.begin_device("batch_add", parent, part, lane_ones, s);
    pl_batch_add<G>(ones, gpu, s, pts, job.ones, job.n_ones);
    t.end_device(sp, s, job.n_ones);

    typename G::point tail;
    uint32_t wbits = 0;
    stream_t& s2 = gpu[lane_tail];
    sp = t.begin_device("tail_msm", parent, part, lane_tail, s2);
    if (job.n_tail) {
        dev_ptr_t<uint32_t> d_idx{job.n_tail, s2};
        dev_ptr_t<typename G::affine_mem> d_tail{job.n_tail, s2};
        s2.HtoD(&d_idx[0], job.tail_idx, job.n_tail);
        pl_gather<<<gpu.sm_count(), 1024, 0, s2>>>(&d_tail[0], pl_dev<G>(pts), &d_idx[0],
                                                   job.n_tail);
        CUDA_OK(cudaGetLastError());
        s2.sync();
        pl_pippenger<G>(tail, o, shared_n, &d_tail[0], job.n_tail,
                        (const scalar_t*)job.tail_scalars, wbits);
        s2.sync();
    } else {
        pl_pippenger<G>(tail, o, shared_n, pl_dev<G>(pts), 0, (const scalar_t*)nullptr, wbits);
    }
    t.end_device(sp, s2, job.n_tail, wbits);

    out = tail;
    out.add(ones);
    t.end_device(sp_all, s2, job.n_ones + job.n_tail, wbits);
}

#endif
