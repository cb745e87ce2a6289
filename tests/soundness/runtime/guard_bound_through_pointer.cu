// soundness: must-refuse
// why: the loop's bound is parsed once from argv but the loop ends it through a pointer to it (*stop = 0): a free after the loop under the first-iteration condition `0 < repeat` would not run, and the buffers would leak
// no-edit: R001
// expect: R002 "'repeat' has its address taken"
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
        int* stop = &repeat;
        const size_t bytes = (size_t)8 << 30;
        for (int it = 0; it < repeat; ++it) {
            char* d;
            cudaMalloc(&d, bytes);
            fill<<<(unsigned)(bytes / 256), 256>>>(d, bytes);
            cudaDeviceSynchronize();
            if (it == 1) *stop = 0;
            cudaFree(d);
        }
    }
    size_t after = free_bytes();
    if (after + ((size_t)16 << 30) < before) { printf("FAIL: %zu MiB leaked\n", (before - after) >> 20); return 1; }
    printf("PASS\n");
    return 0;
}
