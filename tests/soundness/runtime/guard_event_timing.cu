// soundness: must-apply
// why: the timing events are created per iteration of a loop bounded by argv and recorded unconditionally before any other use: a reused event is recorded again before it is read, so hoisted under `0 < repeat` every elapsed time is measured as before, and the results are the same
// edit: R003 "if (0 < repeat) cudaEventCreate(&start);"
// edit: R003 "if (0 < repeat) cudaEventDestroy(stop);"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void scale(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 0.5f + 1.0f; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 10;
    const int n = 1 << 16;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemset(d, 0, n * sizeof(float));
    float elapsed = 0.0f;
    int timed = 0;
    for (int it = 0; it < repeat; ++it) {
        cudaEvent_t start;
        cudaEventCreate(&start);
        cudaEvent_t stop;
        cudaEventCreate(&stop);
        cudaEventRecord(start, 0);
        scale<<<(n + 255) / 256, 256>>>(d, n);
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        float ms = -1.0f;
        if (cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms >= 0.0f) { elapsed += ms; ++timed; }
        cudaEventDestroy(stop);
        cudaEventDestroy(start);
    }
    float last = 0.0f;
    cudaMemcpy(&last, d, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    float want = 0.0f;
    for (int it = 0; it < repeat; ++it) want = want * 0.5f + 1.0f;
    if (timed != repeat || last != want) { printf("FAIL: %d of %d timed, %f want %f\n", timed, repeat, last, want); return 1; }
    printf("PASS %d timed\n", timed);
    return 0;
}
