// The turn order of par-bg2's two host threads (cuda/pl_turns.cuh) on the
// host, with plain threads standing in for the G1 and B_G2 sides of
// pl_prove_msms: the Pippenger parts must come in the fixed order (each
// circuit's three G1 tails, then its B_G2 tail) however the threads are
// scheduled, and a failure on either side must free the other from its wait.
// Built and run by tests/turns_host.rs; prints "ok" and exits 0 on success.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pl_turns.cuh"

static int fail(const char* what, int trial)
{
    std::printf("FAILED: %s (trial %d)\n", what, trial);
    return 1;
}

int main()
{
    for (int trial = 0; trial < 2000; trial++) {
        pl_turns turns;
        std::mutex m;
        std::vector<int> seen;
        auto note = [&](int v) {
            std::lock_guard<std::mutex> g(m);
            seen.push_back(v);
        };
        const size_t circuits = 1 + trial % 5;
        std::thread b_g2([&] {
            for (size_t c = 0; c < circuits; c++) {
                pl_turn t{&turns, c * PL_TURNS_PER_CIRCUIT + 3};
                t.wait();
                note(100 + (int)c);
                t.done();
            }
        });
        for (size_t c = 0; c < circuits; c++)
            for (uint64_t k = 0; k < 3; k++) {
                if (trial % 3 == 0)
                    std::this_thread::yield();
                pl_turn t{&turns, c * PL_TURNS_PER_CIRCUIT + k};
                t.wait();
                note((int)(c * 10 + k));
                t.done();
            }
        b_g2.join();
        std::vector<int> want;
        for (size_t c = 0; c < circuits; c++) {
            for (int k = 0; k < 3; k++)
                want.push_back((int)c * 10 + k);
            want.push_back(100 + (int)c);
        }
        if (seen != want)
            return fail("Pippenger parts out of order", trial);
    }
    for (int trial = 0; trial < 200; trial++) {
        // The G1 side fails after its first tail: the B_G2 thread, waiting
        // for its turn, is stopped rather than left waiting.
        pl_turns turns;
        std::atomic<int> stopped{0};
        std::thread b_g2([&] {
            try {
                pl_turn{&turns, 3}.wait();
            } catch (const pl_stopped&) {
                stopped++;
            }
        });
        try {
            pl_turn first{&turns, 0};
            first.wait();
            first.done();
            throw std::runtime_error("G1 failure");
        } catch (const std::runtime_error&) {
            turns.stop();
        }
        b_g2.join();
        if (stopped != 1)
            return fail("B_G2 thread not stopped after a G1 failure", trial);

        // The B_G2 side fails: the G1 side, waiting for the next circuit, is stopped.
        pl_turns turns2;
        std::atomic<int> stopped2{0};
        std::thread g1([&] {
            try {
                pl_turn{&turns2, PL_TURNS_PER_CIRCUIT}.wait();
            } catch (const pl_stopped&) {
                stopped2++;
            }
        });
        turns2.stop();
        g1.join();
        if (stopped2 != 1)
            return fail("G1 side not stopped after a B_G2 failure", trial);
    }
    // No turns (par-bg2 off): nothing waits.
    pl_turn none{};
    none.wait();
    none.done();
    std::printf("ok\n");
    return 0;
}
