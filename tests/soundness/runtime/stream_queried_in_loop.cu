// soundness: must-refuse
// why: each iteration asks whether its fresh stream is idle (it is) before launching a long kernel and destroying the stream without waiting: hoisted, the one stream still runs the previous iteration's kernel when it is queried
// no-edit: R003
// expect: R004 "'s' is queried (cudaStreamQuery"
// options: --target cuda
#include <cstdio>
__global__ void spin(long long cycles, int* out)
{
    long long start = clock64();
    while (clock64() - start < cycles) { }
    atomicAdd(out, 1);
}
int main()
{
    int* d;
    cudaMalloc(&d, sizeof(int));
    cudaMemset(d, 0, sizeof(int));
    int busy = 0;
    for (int it = 0; it < 8; ++it) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        if (cudaStreamQuery(s) != cudaSuccess) ++busy;
        spin<<<1, 1, 0, s>>>(100000000LL, d);
        cudaStreamDestroy(s);
    }
    cudaDeviceSynchronize();
    int ran = 0;
    cudaMemcpy(&ran, d, sizeof ran, cudaMemcpyDeviceToHost);
    if (busy != 0 || ran != 8) {
        printf("FAIL: %d fresh streams were busy, %d kernels ran\n", busy, ran);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
