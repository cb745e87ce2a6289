// soundness: must-refuse
// why: each iteration creates a stream in a loop bounded by argv and asks cudaStreamQuery whether it is idle: a fresh stream always is; hoisted, the stream would still run the previous iteration's long kernel and the answer would change
// no-edit: R003
// expect: R004 "'s' is queried (cudaStreamQuery"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void spin(long long cycles) { long long t0 = clock64(); while (clock64() - t0 < cycles) { } }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 4;
    int idle = 0;
    for (int it = 0; it < repeat; ++it) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        if (cudaStreamQuery(s) == cudaSuccess) ++idle;
        spin<<<1, 1, 0, s>>>(200000000LL);
        cudaStreamDestroy(s);
    }
    cudaDeviceSynchronize();
    if (idle != repeat) { printf("FAIL: %d of %d fresh streams idle\n", idle, repeat); return 1; }
    printf("PASS\n");
    return 0;
}
