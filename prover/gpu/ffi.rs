//! The C interface of `cuda/pl_ffi.h`, struct by struct, and the conversion
//! of its error struct into a typed [`ProverError`].

use crate::error::ProverError;
use std::ffi::{c_char, c_void, CStr};

#[repr(C)]
pub struct PlError {
    pub code: i32,
    pub message: *mut c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PlPhase {
    pub name: [u8; 20],
    pub parent: [u8; 20],
    pub partition: u32,
    pub lane: u32,
    pub start_ms: f64,
    pub ms: f64,
    pub count: u64,
    pub window: u32,
    pub pad: u32,
}

#[repr(C)]
pub struct PlPhases {
    pub items: *mut PlPhase,
    pub cap: usize,
    pub len: usize,
    pub dropped: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct PlOpts {
    pub pin: u32,
    pub window_tune: u32,
    pub shared_window_n: u64,
    pub inject_alloc_bytes: u64,
    pub par_bg2: u32,
    pub pad: u32,
}

/// The point group of a device-resident point set (`PL_GROUP_*`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    G1 = 1,
    G2 = 2,
}

#[repr(C)]
pub struct PlSplit {
    pub ones: *const u32,
    pub n_ones: usize,
    pub tail_idx: *const u32,
    pub tail_scalars: *const c_void,
    pub n_tail: usize,
}

#[repr(C)]
pub struct PlAbc {
    pub a: *const c_void,
    pub b: *const c_void,
    pub c: *const c_void,
    pub len: usize,
}

#[repr(C)]
pub struct PlCircuit {
    pub l: PlSplit,
    pub a_q: PlSplit,
    pub b_q: PlSplit,
}

/// Opaque device-resident point set.
#[repr(C)]
pub struct PlPoints {
    _private: [u8; 0],
}

// cuda/pl_ffi.h asserts the same sizes on the C++ side.
const _: () = {
    use std::mem::size_of;
    assert!(size_of::<PlError>() == 16);
    assert!(size_of::<PlPhase>() == 80);
    assert!(size_of::<PlPhases>() == 32);
    assert!(size_of::<PlOpts>() == 32);
    assert!(size_of::<PlSplit>() == 40);
    assert!(size_of::<PlAbc>() == 32);
    assert!(size_of::<PlCircuit>() == 120);
};

extern "C" {
    pub fn pl_init(name: *mut c_char, name_len: usize, sm_count: *mut u32, mem_bytes: *mut u64) -> PlError;
    pub fn pl_free_message(message: *mut c_char);
    pub fn pl_mem_info(free_bytes: *mut u64, total_bytes: *mut u64) -> PlError;
    pub fn pl_points_upload(
        host: *const c_void,
        n: usize,
        group: Group,
        opts: *const PlOpts,
        out: *mut *mut PlPoints,
        phases: *mut PlPhases,
    ) -> PlError;
    pub fn pl_points_free(p: *mut PlPoints);
    pub fn pl_ntt(inout: *mut c_void, lg_n: u32, inverse: u32, coset: u32) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_h_poly(
        a: *const c_void,
        b: *const c_void,
        c: *const c_void,
        len: usize,
        lg_n: u32,
        z_inv: *const c_void,
        out: *mut c_void,
        opts: *const PlOpts,
        phases: *mut PlPhases,
    ) -> PlError;
    pub fn pl_split_msm(
        points: *const PlPoints,
        job: *const PlSplit,
        opts: *const PlOpts,
        out: *mut c_void,
        phases: *mut PlPhases,
    ) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_prove_h(
        h: *const PlPoints,
        circuits: *const PlAbc,
        n_circuits: usize,
        lg_n: u32,
        z_inv: *const c_void,
        opts: *const PlOpts,
        out: *mut c_void,
        phases: *mut PlPhases,
    ) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_prove_msms(
        l: *const PlPoints,
        a: *const PlPoints,
        b_g1: *const PlPoints,
        b_g2: *const PlPoints,
        circuits: *const PlCircuit,
        n_circuits: usize,
        domain_n: u64,
        opts: *const PlOpts,
        out_g1: *mut c_void,
        out_g2: *mut c_void,
        phases: *mut PlPhases,
    ) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_fixed_base_g1(
        table: *const c_void,
        wbits: u32,
        windows: u32,
        scalars: *const c_void,
        n: usize,
        chunk: usize,
        out: *mut c_void,
        phases: *mut PlPhases,
    ) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_fixed_base_g2(
        table: *const c_void,
        wbits: u32,
        windows: u32,
        scalars: *const c_void,
        n: usize,
        chunk: usize,
        out: *mut c_void,
        phases: *mut PlPhases,
    ) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_fixed_base_host_g1(
        table: *const c_void,
        wbits: u32,
        windows: u32,
        scalars: *const c_void,
        n: usize,
        chunk: usize,
        threads: usize,
        out: *mut c_void,
    ) -> PlError;
    #[allow(clippy::too_many_arguments)]
    pub fn pl_fixed_base_host_g2(
        table: *const c_void,
        wbits: u32,
        windows: u32,
        scalars: *const c_void,
        n: usize,
        chunk: usize,
        threads: usize,
        out: *mut c_void,
    ) -> PlError;
}

/// Turns a returned error struct into a result, releasing its message.
pub fn check(e: PlError) -> Result<(), ProverError> {
    if e.code == 0 {
        return Ok(());
    }
    let message = if e.message.is_null() {
        format!("CUDA error {}", e.code)
    } else {
        // SAFETY: a non-null message is a NUL-terminated string from strdup.
        let s = unsafe { CStr::from_ptr(e.message) }.to_string_lossy().into_owned();
        unsafe { pl_free_message(e.message) };
        s
    };
    Err(ProverError::Gpu { code: e.code, message })
}

/// A phase buffer for one call.
pub struct PhaseBuf {
    pub items: Vec<PlPhase>,
    pub raw: PlPhases,
}

impl PhaseBuf {
    pub fn new(cap: usize) -> Self {
        let zero = PlPhase {
            name: [0; 20],
            parent: [0; 20],
            partition: 0,
            lane: 0,
            start_ms: 0.0,
            ms: 0.0,
            count: 0,
            window: 0,
            pad: 0,
        };
        let mut items = vec![zero; cap];
        let raw = PlPhases {
            items: items.as_mut_ptr(),
            cap,
            len: 0,
            dropped: 0,
        };
        PhaseBuf { items, raw }
    }
    pub fn filled(&self) -> &[PlPhase] {
        &self.items[..self.raw.len.min(self.items.len())]
    }
}

pub fn cstr(b: &[u8]) -> String {
    let end = b.iter().position(|c| *c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}
