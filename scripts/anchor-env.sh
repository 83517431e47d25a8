# Sourced by the anchor scripts: finds nvcc ($NVCC, else nvcc on PATH, else
# $CUDA_PATH/bin/nvcc) and exports NVCC, PATH and LIBRARY_PATH so that the
# build scripts of sppark and supraseal-c2 find nvcc and libcudart_static.a
# (the PyPI wheels keep it in lib/, where the linker does not look by itself).
anchor_cuda_env() {
    local nvcc="${NVCC:-}"
    if [[ -z "$nvcc" ]]; then
        if command -v nvcc >/dev/null 2>&1; then
            nvcc="$(command -v nvcc)"
        elif [[ -n "${CUDA_PATH:-}" && -x "$CUDA_PATH/bin/nvcc" ]]; then
            nvcc="$CUDA_PATH/bin/nvcc"
        fi
    fi
    if [[ -z "$nvcc" || ! -x "$nvcc" ]]; then
        echo "nvcc not found (set NVCC or CUDA_PATH, or put nvcc on PATH; without a CUDA" >&2
        echo "  toolkit, install the pinned 13.0 wheels: see docs/anchors.md)" >&2
        return 2
    fi
    local top d
    top="$(cd "$(dirname "$nvcc")/.." && pwd)"
    for d in "$top/lib64" "$top/lib" "$top/targets/x86_64-linux/lib"; do
        if [[ -f "$d/libcudart_static.a" ]]; then
            export LIBRARY_PATH="$d${LIBRARY_PATH:+:$LIBRARY_PATH}"
        fi
    done
    export PATH="$(dirname "$nvcc"):$PATH"
    export NVCC="$nvcc"
    anchor_link_stub || return 2
}

# The anchor proves the real PoRep circuit, so it builds storage-proofs-core
# with `cuda-supraseal`, which also builds neptune's CUDA code against the
# driver API (cuda-driver-sys, linked with -lcuda). The anchor never calls
# that code. A CUDA toolkit has a libcuda.so to link against in lib64/stubs;
# the pip wheels have none. So this writes a stub into the target directory,
# one function per entry point that cuda-driver-sys declares, each returning
# CUDA_ERROR_NO_DEVICE, named `libphaseline-nocuda.so` inside: the linker
# drops it from the anchor binary (nothing there calls it; anchor-bundle.sh
# checks), a test binary that keeps a reference loads it by that name
# (anchor-check.sh puts the folder on LD_LIBRARY_PATH), and it is never
# mistaken for the driver, which is loaded as libcuda.so.1.
anchor_link_stub() {
    local d
    for d in ${LIBRARY_PATH//:/ } /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/lib64/stubs; do
        [[ -e "$d/libcuda.so" ]] && return 0
    done
    local stub="${CARGO_TARGET_DIR:-${root:?}/anchors/supraseal/target}/cuda-link-stub"
    mkdir -p "$stub"
    if [[ ! -f "$stub/libphaseline-nocuda.so" ]]; then
        local src
        src=$(cargo metadata --format-version 1 --locked --manifest-path "$root/anchors/supraseal/Cargo.toml" \
            | python3 -c 'import json,sys,os; m=json.load(sys.stdin); print(next(os.path.join(os.path.dirname(p["manifest_path"]),"src","cuda.rs") for p in m["packages"] if p["name"]=="cuda-driver-sys"))') || return 2
        grep -oE 'pub fn cu[A-Za-z0-9_]+' "$src" | sed -E 's/pub fn (.*)/int \1(void) { return 100; }/' | sort -u > "$stub/stub.c"
        [[ -s "$stub/stub.c" ]] || { echo "anchor-env: no entry points found in $src" >&2; return 2; }
        cc -shared -fPIC "$stub/stub.c" -Wl,-soname,libphaseline-nocuda.so -o "$stub/libphaseline-nocuda.so.tmp$$" || return 2
        mv -f "$stub/libphaseline-nocuda.so.tmp$$" "$stub/libphaseline-nocuda.so"
    fi
    ln -sf libphaseline-nocuda.so "$stub/libcuda.so"
    export LIBRARY_PATH="$stub${LIBRARY_PATH:+:$LIBRARY_PATH}"
    export ANCHOR_LINK_STUB="$stub"
}
