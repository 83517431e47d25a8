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
}
