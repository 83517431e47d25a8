// The order of the Pippenger parts of one pl_prove_msms call when B_G2 has
// its own host thread (par-bg2).
//
// sppark's msm_t works through the device's one gpu_t: G1's and G2's
// Pippengers share its three streams and its host pool (the bucket sums), so
// two at once queued each other's kernels and sums, and each span took in
// part of the other's work, in an order a race chose. That was the wide
// spread of the G1 spans under par-bg2. Turns fix the order: for each
// circuit its L, A and B_G1 tails, then its B_G2 tail. What the B_G2 thread
// does outside its turn (its batch additions, on a stream of its own, and
// their host sums) still overlaps the G1 work.
#ifndef PL_TURNS_CUH
#define PL_TURNS_CUH

#include <condition_variable>
#include <cstdint>
#include <mutex>

// Thrown in a thread waiting for its turn once the other thread has failed;
// the other thread's error is the one reported.
struct pl_stopped {};

class pl_turns {
    std::mutex m;
    std::condition_variable cv;
    uint64_t next = 0;
    bool stopped = false;

public:
    void wait(uint64_t turn)
    {
        std::unique_lock<std::mutex> g(m);
        cv.wait(g, [&] { return stopped || next == turn; });
        if (stopped)
            throw pl_stopped{};
    }
    void done()
    {
        {
            std::lock_guard<std::mutex> g(m);
            next++;
        }
        cv.notify_all();
    }
    void stop()
    {
        {
            std::lock_guard<std::mutex> g(m);
            stopped = true;
        }
        cv.notify_all();
    }
};

// One Pippenger part's place in the order; no turns: nothing to wait for.
struct pl_turn {
    pl_turns* turns = nullptr;
    uint64_t n = 0;

    void wait() const { if (turns) turns->wait(n); }
    void done() const { if (turns) turns->done(); }
};

// Turn numbers: per circuit, its three G1 tails, then its B_G2 tail.
static const uint64_t PL_TURNS_PER_CIRCUIT = 4;

#endif
