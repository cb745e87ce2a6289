// soundness: must-refuse
// why: a lambda that captures everything by reference ends the loop by setting its bound to zero: the first-iteration condition would be false after the loop, and the free after it would not run (the buffers leak)
// no-edit: R001
// expect: R002 "captures everything by reference and uses 'repeat'"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
__global__ void fill(char* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1; }
static size_t free_bytes() { size_t f = 0, t = 0; cudaMemGetInfo(&f, &t); return f; }
int main(int argc, char** argv)
{
    // The device's free memory is the measure, and other programs allocate too: the cases
    // that measure it run one at a time (scripts/run_soundness.py runs cases in parallel).
    int lock = open("/tmp/cu2hip-soundness-device-memory.lock", O_CREAT | O_RDWR, 0666);
    if (lock >= 0) flock(lock, LOCK_EX);
    cudaFree(0);
    size_t before = free_bytes();
    for (int call = 0; call < 4; ++call) {
        int repeat = argc > 1 ? atoi(argv[1]) : 3;
        auto finish = [&](int it) { if (it == 1) repeat = 0; };
        const size_t bytes = (size_t)8 << 30;
        for (int it = 0; it < repeat; ++it) {
            char* d;
            cudaMalloc(&d, bytes);
            fill<<<(unsigned)(bytes / 256), 256>>>(d, bytes);
            cudaDeviceSynchronize();
            finish(it);
            cudaFree(d);
        }
    }
    size_t after = free_bytes();
    if (after + ((size_t)16 << 30) < before) { printf("FAIL: %zu MiB leaked\n", (before - after) >> 20); return 1; }
    printf("PASS\n");
    return 0;
}
