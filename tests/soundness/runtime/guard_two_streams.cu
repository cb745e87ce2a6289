// soundness: must-refuse
// why: in a loop bounded by argv a writer runs on one stream and a reader on another; only the free's device-wide wait at the end of each iteration ordered the next iteration's writer after this iteration's reader: hoisted, they could overlap and the reader would see the next value
// no-edit: R001
// expect: R002 "the body's work is on several streams"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void write(int* x, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v; }
__global__ void slow_read(const int* x, int n, long long* sum) { long long t0 = clock64(); while (clock64() - t0 < 20000000LL) { } int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd((unsigned long long*)sum, (unsigned long long)x[i]); }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 6;
    const int n = 256;
    int* x;
    long long* sum;
    cudaMalloc(&x, n * sizeof(int));
    cudaMalloc(&sum, sizeof(long long));
    cudaMemset(sum, 0, sizeof(long long));
    cudaStream_t a, b;
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
    for (int it = 0; it < repeat; ++it) {
        int* scratch;
        cudaMalloc(&scratch, n * sizeof(int));
        write<<<1, n, 0, a>>>(x, n, it + 1);
        cudaStreamSynchronize(a);
        slow_read<<<1, n, 0, b>>>(x, n, sum);
        write<<<1, n, 0, a>>>(scratch, n, it);
        cudaFree(scratch);
    }
    long long got = 0;
    cudaMemcpy(&got, sum, sizeof(long long), cudaMemcpyDeviceToHost);
    long long want = 0;
    for (int it = 0; it < repeat; ++it) want += (long long)n * (it + 1);
    cudaFree(x);
    cudaFree(sum);
    if (got != want) { printf("FAIL: %lld want %lld\n", got, want); return 1; }
    printf("PASS %lld\n", got);
    return 0;
}
