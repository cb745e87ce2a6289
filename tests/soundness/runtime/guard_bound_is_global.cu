// soundness: must-refuse
// why: the bound is a global parsed from argv, and a function the loop calls lowers it: the first-iteration condition would be true before the loop and false after it, and the free after the loop would not run (the buffers leak)
// no-edit: R001
// expect: R002 "'g_repeat' is not a local of the function"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
__global__ void fill(char* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1; }
static size_t free_bytes() { size_t f = 0, t = 0; cudaMemGetInfo(&f, &t); return f; }
int g_repeat = 0;
void progress(int it) { if (it == 1) g_repeat = 0; }
void work()
{
    const size_t bytes = (size_t)8 << 30;
    for (int it = 0; it < g_repeat; ++it) {
        char* d;
        cudaMalloc(&d, bytes);
        fill<<<(unsigned)(bytes / 256), 256>>>(d, bytes);
        cudaDeviceSynchronize();
        progress(it);
        cudaFree(d);
    }
}
int main(int argc, char** argv)
{
    // The device's free memory is the measure, and other programs allocate too: the cases
    // that measure it run one at a time (scripts/run_soundness.py runs cases in parallel).
    int lock = open("/tmp/cu2hip-soundness-device-memory.lock", O_CREAT | O_RDWR, 0666);
    if (lock >= 0) flock(lock, LOCK_EX);
    cudaFree(0);
    size_t before = free_bytes();
    for (int call = 0; call < 4; ++call) {
        g_repeat = argc > 1 ? atoi(argv[1]) : 3;
        work();
    }
    size_t after = free_bytes();
    if (after + ((size_t)16 << 30) < before) { printf("FAIL: %zu MiB leaked\n", (before - after) >> 20); return 1; }
    printf("PASS\n");
    return 0;
}
