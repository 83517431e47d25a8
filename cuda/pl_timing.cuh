// Phase timings as data: device spans are bracketed by CUDA events recorded
// on the stream that does the work, host spans by a steady clock; both are
// relative to the entry of the call and written into the caller's pl_phases.
#ifndef PL_TIMING_CUH
#define PL_TIMING_CUH

#include <chrono>
#include <cstring>
#include <vector>

#include "pl_ffi.h"

static const uint32_t PL_HOST_LANE = 99;

class pl_timer {
    struct pending {
        pl_phase p;
        cudaEvent_t start, end;   // null for host spans
    };
    pl_phases* out;
    cudaEvent_t origin = nullptr;
    std::chrono::steady_clock::time_point host0;
    std::vector<pending> spans;

    static void copy_name(char* dst, const char* src)
    {
        std::strncpy(dst, src ? src : "", 19);
        dst[19] = 0;
    }

public:
    struct span {
        size_t idx;
    };

    // origin_stream: an idle stream, so the origin event fires at once.
    pl_timer(pl_phases* o, cudaStream_t origin_stream) : out(o)
    {
        host0 = std::chrono::steady_clock::now();
        if (out) {
            CUDA_OK(cudaEventCreate(&origin));
            CUDA_OK(cudaEventRecord(origin, origin_stream));
        }
    }
    ~pl_timer()
    {
        for (auto& s : spans) {
            if (s.start) (void)cudaEventDestroy(s.start);
            if (s.end) (void)cudaEventDestroy(s.end);
        }
        if (origin) (void)cudaEventDestroy(origin);
    }

    double host_now_ms() const
    {
        return std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - host0).count();
    }

    span begin_device(const char* name, const char* parent, uint32_t part,
                      uint32_t lane, cudaStream_t s)
    {
        pending p{};
        copy_name(p.p.name, name);
        copy_name(p.p.parent, parent);
        p.p.partition = part;
        p.p.lane = lane;
        if (out) {
            CUDA_OK(cudaEventCreate(&p.start));
            CUDA_OK(cudaEventCreate(&p.end));
            CUDA_OK(cudaEventRecord(p.start, s));
        }
        spans.push_back(p);
        return span{spans.size() - 1};
    }
    void end_device(span sp, cudaStream_t s, uint64_t count = 0, uint32_t window = 0)
    {
        auto& p = spans[sp.idx];
        p.p.count = count;
        p.p.window = window;
        if (out)
            CUDA_OK(cudaEventRecord(p.end, s));
    }

    span begin_host(const char* name, const char* parent, uint32_t part)
    {
        pending p{};
        copy_name(p.p.name, name);
        copy_name(p.p.parent, parent);
        p.p.partition = part;
        p.p.lane = PL_HOST_LANE;
        p.p.start_ms = host_now_ms();
        spans.push_back(p);
        return span{spans.size() - 1};
    }
    void end_host(span sp, uint64_t count = 0, uint32_t window = 0)
    {
        auto& p = spans[sp.idx];
        p.p.ms = host_now_ms() - p.p.start_ms;
        p.p.count = count;
        p.p.window = window;
    }

    // Call once all recorded work is complete (after a device sync).
    void flush()
    {
        if (!out)
            return;
        for (auto& s : spans) {
            if (s.start) {
                float a = 0, b = 0;
                CUDA_OK(cudaEventElapsedTime(&a, origin, s.start));
                CUDA_OK(cudaEventElapsedTime(&b, s.start, s.end));
                s.p.start_ms = a;
                s.p.ms = b;
            }
            if (out->len < out->cap)
                out->items[out->len++] = s.p;
            else
                out->dropped++;
        }
        spans.clear();
    }
};

#endif
