// Split MSMs over device-resident G1 points: scalars equal to 1 are summed
// by sppark's batch addition, the rest go through sppark's Pippenger (the
// "tail MSM"); zeros are skipped. Window choice: one sppark msm_t per window
// size; with window-tune each MSM's window comes from its own point count,
// otherwise from one shared size.
#ifndef PL_MSM_CUH
#define PL_MSM_CUH

#include <map>

typedef msm_t<bucket_t, point_t, affine_t, scalar_t> pl_msm_t;

struct pl_points {
    affine_t::mem_t* d;
    size_t n;
};

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

// One msm_t per window size, kept for the life of the process (its bucket
// memory is sized by the window). Never destroyed: msm_t's destructor syncs
// the device, which must not run during process exit.
static pl_msm_t& pl_msm_for(size_t n, uint32_t& wbits)
{
    static auto* cache = new std::map<uint32_t, pl_msm_t*>();
    wbits = pl_window_bits(n);
    auto it = cache->find(wbits);
    if (it == cache->end())
        it = cache->emplace(wbits, new pl_msm_t(nullptr, n)).first;
    return *it->second;
}

__global__ void pl_gather(affine_t::mem_t* out, const affine_t::mem_t* in,
                          const uint32_t* idx, size_t n)
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
template<typename scalar_ptr>
static void pl_pippenger(point_t& out, const pl_opts& o, size_t shared_n,
                         affine_t::mem_t* d_points, size_t n, scalar_ptr scalars,
                         uint32_t& wbits)
{
    out.inf();
    pl_msm_t& msm = pl_msm_for(o.window_tune ? n : shared_n, wbits);
    if (n == 0)
        return;
    // Typed as the host affine type so sppark treats it as device-resident.
    dev_ptr_t<affine_t> pts{reinterpret_cast<affine_t*>(d_points)};
    pl_check(msm.invoke(out, pts, n, scalars, true));
}

// Sum of the points at `ones` (batch addition), on stream s.
static void pl_batch_add(point_t& out, const gpu_t& gpu, stream_t& s,
                         const pl_points& pts, const uint32_t* ones, size_t n_ones)
{
    out.inf();
    if (n_ones == 0)
        return;
    uint32_t nbuckets = gpu.sm_count() * BATCH_ADD_BLOCK_SIZE / WARP_SZ;
    dev_ptr_t<uint32_t> d_idx{n_ones + 1, s};
    dev_ptr_t<bucket_t::mem_t> d_res{nbuckets, s};
    uint32_t cnt = (uint32_t)n_ones;
    s.HtoD(&d_idx[0], ones, n_ones);
    s.HtoD(&d_idx[n_ones], &cnt, 1);
    batch_addition<bucket_t><<<gpu.sm_count(), BATCH_ADD_BLOCK_SIZE, 0, s>>>(
        &d_res[0], (const affine_t::mem_t*)pts.d, pts.n, &d_idx[0], d_idx[n_ones]);
    CUDA_OK(cudaGetLastError());
    std::vector<bucket_t> res(nbuckets);
    s.DtoH(&res[0], &d_res[0], nbuckets);
    s.sync();
    out = sum_up(res);
}

// One split MSM: batch addition of the ones, then the tail Pippenger.
static void pl_split_run(point_t& out, const gpu_t& gpu, const pl_points& pts,
                         const pl_split& job, const pl_opts& o, size_t shared_n,
                         pl_timer& t, const char* parent, uint32_t part)
{
    stream_t& s = gpu[0];
    auto sp_all = t.begin_device(parent, "", part, 0, s);

    point_t ones;
    auto sp = t.begin_device("batch_add", parent, part, 0, s);
    pl_batch_add(ones, gpu, s, pts, job.ones, job.n_ones);
    t.end_device(sp, s, job.n_ones);

    point_t tail;
    uint32_t wbits = 0;
    stream_t& s2 = gpu[2];
    sp = t.begin_device("tail_msm", parent, part, 2, s2);
    if (job.n_tail) {
        dev_ptr_t<uint32_t> d_idx{job.n_tail, s2};
        dev_ptr_t<affine_t::mem_t> d_tail{job.n_tail, s2};
        s2.HtoD(&d_idx[0], job.tail_idx, job.n_tail);
        pl_gather<<<gpu.sm_count(), 1024, 0, s2>>>(&d_tail[0], pts.d, &d_idx[0], job.n_tail);
        CUDA_OK(cudaGetLastError());
        s2.sync();
        pl_pippenger(tail, o, shared_n, &d_tail[0], job.n_tail,
                     (const scalar_t*)job.tail_scalars, wbits);
        s2.sync();
    } else {
        pl_pippenger(tail, o, shared_n, pts.d, 0, (const scalar_t*)nullptr, wbits);
    }
    t.end_device(sp, s2, job.n_tail, wbits);

    out = tail;
    out.add(ones);
    t.end_device(sp_all, s2, job.n_ones + job.n_tail, wbits);
}

#endif
