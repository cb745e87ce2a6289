// soundness: must-refuse
// why: the loop's bound 'left' is lowered by each iteration: the condition of its first iteration (0 < left) is true before the loop and false after it, so a free after the loop under the same condition would never run and each call would leak its 1 GiB buffer
// no-edit: R001
// expect: R002 "its bound 'left' is not loop-invariant ('left' is written in the loop"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
__global__ void fill(char* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] = 1; }
static size_t free_bytes() { size_t f = 0, t = 0; cudaMemGetInfo(&f, &t); return f; }
void work(int left)
{
    const size_t bytes = (size_t)8 << 30;
    for (int it = 0; it < left; ++it) {
        char* d;
        cudaMalloc(&d, bytes);
        fill<<<(unsigned)(bytes / 256), 256>>>(d, bytes);
        cudaDeviceSynchronize();
        left -= 2;
        cudaFree(d);
    }
}
int main(int argc, char** argv)
{
    // The device's free memory is the measure, and other programs allocate too: the cases
    // that measure it run one at a time (scripts/run_soundness.py runs cases in parallel).
    int lock = open("/tmp/cu2hip-soundness-device-memory.lock", O_CREAT | O_RDWR, 0666);
    if (lock >= 0) flock(lock, LOCK_EX);
    int left = argc > 1 ? atoi(argv[1]) : 4;
    cudaFree(0);
    size_t before = free_bytes();
    for (int call = 0; call < 4; ++call) work(left);
    size_t after = free_bytes();
    if (after + ((size_t)16 << 30) < before) { printf("FAIL: %zu MiB leaked\n", (before - after) >> 20); return 1; }
    printf("PASS\n");
    return 0;
}
