// soundness: must-refuse
// why: the event is created per iteration of a loop bounded by argv and recorded only in even iterations; in an odd one a fresh event is complete (cudaEventQuery succeeds), a reused one still holds the last recording of a long kernel
// no-edit: R003
// expect: R004 "'done' is recorded under a condition"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void spin(long long cycles) { long long t0 = clock64(); while (clock64() - t0 < cycles) { } }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 4;
    cudaStream_t s;
    cudaStreamCreate(&s);
    int complete = 0;
    for (int it = 0; it < repeat; ++it) {
        cudaEvent_t done;
        cudaEventCreate(&done);
        if (it % 2 == 0) {
            spin<<<1, 1, 0, s>>>(200000000LL);
            cudaEventRecord(done, s);
        }
        if (it % 2 == 1 && cudaEventQuery(done) == cudaSuccess) ++complete;
        cudaEventDestroy(done);
    }
    cudaDeviceSynchronize();
    cudaStreamDestroy(s);
    if (complete != repeat / 2) { printf("FAIL: %d of %d fresh events complete\n", complete, repeat / 2); return 1; }
    printf("PASS\n");
    return 0;
}
