// soundness: must-refuse
// why: the stop event is recorded in even iterations only; a fresh, unrecorded event gives no elapsed time (an error) in the odd ones: hoisted, the odd iterations would time against the previous iteration's recording
// no-edit: R003
// expect: R004 "is recorded under a condition"
// options: --target cuda
#include <cstdio>
__global__ void work(float* x) { x[threadIdx.x] += 1.0f; }
int main()
{
    float* d;
    cudaMalloc(&d, 256 * sizeof(float));
    int timed = 0;
    cudaEvent_t start;
    cudaEventCreate(&start);
    for (int it = 0; it < 8; ++it) {
        cudaEvent_t stop;
        cudaEventCreate(&stop);
        cudaEventRecord(start);
        work<<<1, 256>>>(d);
        if (it % 2 == 0) cudaEventRecord(stop);
        cudaDeviceSynchronize();
        float ms = 0;
        if (cudaEventElapsedTime(&ms, start, stop) == cudaSuccess) ++timed;
        cudaEventDestroy(stop);
    }
    cudaEventDestroy(start);
    cudaGetLastError();
    if (timed != 4) {
        printf("FAIL: %d of 8 iterations were timed, 4 expected\n", timed);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
