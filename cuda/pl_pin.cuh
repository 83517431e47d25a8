// B1 (`pin`): page-lock host buffers with cudaHostRegister before they are
// copied to the device, and release them afterwards. A buffer whose pages
// are already registered (two small buffers sharing a page) is left alone.
#ifndef PL_PIN_CUH
#define PL_PIN_CUH

#include <vector>

class pl_pinned {
    std::vector<void*> regs;
    size_t locked = 0;
public:
    pl_pinned() = default;
    pl_pinned(const pl_pinned&) = delete;
    pl_pinned& operator=(const pl_pinned&) = delete;

    void add(const void* p, size_t bytes)
    {
        if (p == nullptr || bytes == 0)
            return;
        cudaError_t e = cudaHostRegister(const_cast<void*>(p), bytes,
                                         cudaHostRegisterDefault);
        if (e == cudaErrorHostMemoryAlreadyRegistered) {
            (void)cudaGetLastError();
            return;
        }
        CUDA_OK(e);
        regs.push_back(const_cast<void*>(p));
        locked += bytes;
    }
    // Bytes this object page-locked (what a `pin` span reports as its count).
    size_t bytes() const { return locked; }
    void release()
    {
        for (void* p : regs)
            (void)cudaHostUnregister(p);
        regs.clear();
        locked = 0;
    }
    ~pl_pinned() { release(); }
};

#endif
