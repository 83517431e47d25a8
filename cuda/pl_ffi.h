// The C interface between the Rust prover and our CUDA pipeline.
// prover/gpu/ffi.rs mirrors every struct here field by field (#[repr(C)]).
// Field elements and points cross the boundary in blst's memory layout
// (Montgomery form): fr 32 bytes, G1 affine 96, G1 Jacobian 144.
#ifndef PL_FFI_H
#define PL_FFI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Every entry point returns this. code 0 is success; otherwise message is a
// malloc'd string the caller releases with pl_free_message.
typedef struct {
    int32_t code;
    char* message;
} pl_error;

// One timed span. Device spans come from CUDA events, host spans from a
// steady clock; start_ms is relative to the entry of the call.
typedef struct {
    char name[20];
    char parent[20];
    uint32_t partition;
    uint32_t lane;        // 0..2: stream index; 99: host
    double start_ms;
    double ms;
    uint64_t count;       // points or elements involved
    uint32_t window;      // Pippenger window bits (MSM spans), else 0
    uint32_t pad;
} pl_phase;

typedef struct {
    pl_phase* items;
    size_t cap;
    size_t len;
    size_t dropped;       // spans that did not fit
} pl_phases;

typedef struct {
    uint32_t pin;               // page-lock host buffers before copying them
    uint32_t window_tune;       // window per MSM from its own size
    uint64_t shared_window_n;   // size the shared window is chosen for (0: each call's point count)
    uint64_t inject_alloc_bytes;// test hook: one extra device allocation of this size
    uint32_t par_bg2;           // B_G2 driven by its own host thread beside the G1 work
    uint32_t pad;
} pl_opts;

// Point groups of a device-resident point set.
#define PL_GROUP_G1 1u          // blst_p1_affine, 96 bytes; Jacobian results 144 bytes
#define PL_GROUP_G2 2u          // blst_p2_affine, 192 bytes; Jacobian results 288 bytes

// One MSM split by scalar class over a device-resident point set:
// indices whose scalar is 1 (summed by batch addition) and the indices and
// scalars of the rest (Pippenger "tail"); zero scalars appear in neither.
typedef struct {
    const uint32_t* ones;
    size_t n_ones;
    const uint32_t* tail_idx;
    const void* tail_scalars;   // fr, Montgomery form
    size_t n_tail;
} pl_split;

// One circuit's evaluations of A, B, C over the domain (fr, `len` each).
typedef struct {
    const void* a;
    const void* b;
    const void* c;
    size_t len;
} pl_abc;

// One circuit's split MSMs.
typedef struct {
    pl_split l;
    pl_split a_q;       // A query
    pl_split b_q;       // B query: B_G1 and B_G2
} pl_circuit;

typedef struct pl_points pl_points;

pl_error pl_init(char* name, size_t name_len, uint32_t* sm_count, uint64_t* mem_bytes);
void pl_free_message(char* message);

// The device's free and total memory in bytes (cudaMemGetInfo), asked
// before an upload so that one too large for the device fails before it starts.
pl_error pl_mem_info(uint64_t* free_bytes, uint64_t* total_bytes);

// Copies n affine points of `group` (PL_GROUP_G1 or PL_GROUP_G2) to the device.
pl_error pl_points_upload(const void* host_affine, size_t n, uint32_t group,
                          const pl_opts* opts, pl_points** out, pl_phases* phases);
void pl_points_free(pl_points* p);

pl_error pl_ntt(void* inout, uint32_t lg_n, uint32_t inverse, uint32_t coset);

pl_error pl_h_poly(const void* a, const void* b, const void* c, size_t len,
                   uint32_t lg_n, const void* z_inv, void* out_coeffs,
                   const pl_opts* opts, pl_phases* phases);

// One split MSM over a point set of either group; out: one Jacobian point
// of that group.
pl_error pl_split_msm(const pl_points* points, const pl_split* job,
                      const pl_opts* opts, void* out_jacobian, pl_phases* phases);

// H of a batch of circuits of one shape: per circuit, NTTs and the quotient
// on the device, then the H MSM over the device-resident coefficients.
// Needs no split scalars, so the caller splits them (msm_prep) meanwhile.
// out: one G1 Jacobian point per circuit.
pl_error pl_prove_h(const pl_points* h, const pl_abc* circuits, size_t n_circuits,
                    uint32_t lg_n, const void* z_inv, const pl_opts* opts, void* out,
                    pl_phases* phases);

// The split MSMs of a batch of circuits of one shape: L, A, B_G1 in G1 and
// B_G2 in G2 (the B split against the G2 points). domain_n: the NTT domain
// size (the shared window's size without window-tune).
// out_g1: 3 G1 Jacobian points per circuit in the order L, A, B_G1;
// out_g2: one G2 Jacobian point per circuit.
pl_error pl_prove_msms(const pl_points* l, const pl_points* a, const pl_points* b_g1,
                       const pl_points* b_g2, const pl_circuit* circuits,
                       size_t n_circuits, uint64_t domain_n, const pl_opts* opts,
                       void* out_g1, void* out_g2, pl_phases* phases);

// Fixed-base batch multiplication of the Groth16 setup: out[i] = scalars[i] * g
// as affine points (blst layout; all-zero x, y for infinity). table_affine
// holds `windows` rows of 2^(wbits-1) affine points, row i being
// k * 2^(wbits i) * g for k = 1..=2^(wbits-1); wbits in 2..=16 and
// windows * wbits >= 256. Scalars are fr in Montgomery form. G1: 96-byte
// points; G2: 192-byte points (x.c0, x.c1, y.c0, y.c1). The device works
// through `chunk` scalars at a time (at least 1), which bounds its memory.
pl_error pl_fixed_base_g1(const void* table_affine, uint32_t wbits, uint32_t windows,
                          const void* scalars_mont, size_t n, size_t chunk,
                          void* out_affine, pl_phases* phases);
pl_error pl_fixed_base_g2(const void* table_affine, uint32_t wbits, uint32_t windows,
                          const void* scalars_mont, size_t n, size_t chunk,
                          void* out_affine, pl_phases* phases);

// The same computation by the same per-element code (pl_fb_math.cuh) built
// for the host: chunk by chunk, each chunk's normalization split into
// `threads` strided runs as the device's threads split it. A check of that
// code on machines without a GPU, not a fast path (one host thread).
pl_error pl_fixed_base_host_g1(const void* table_affine, uint32_t wbits, uint32_t windows,
                               const void* scalars_mont, size_t n, size_t chunk,
                               size_t threads, void* out_affine);
pl_error pl_fixed_base_host_g2(const void* table_affine, uint32_t wbits, uint32_t windows,
                               const void* scalars_mont, size_t n, size_t chunk,
                               size_t threads, void* out_affine);

#ifdef __cplusplus
}
// prover/gpu/ffi.rs asserts the same sizes, so a layout change on one side
// fails the build instead of corrupting data.
static_assert(sizeof(pl_error) == 16, "pl_error layout");
static_assert(sizeof(pl_phase) == 80, "pl_phase layout");
static_assert(sizeof(pl_phases) == 32, "pl_phases layout");
static_assert(sizeof(pl_opts) == 32, "pl_opts layout");
static_assert(sizeof(pl_split) == 40, "pl_split layout");
static_assert(sizeof(pl_abc) == 32, "pl_abc layout");
static_assert(sizeof(pl_circuit) == 120, "pl_circuit layout");
#endif
#endif
