// soundness: must-refuse
// why: declaring the Filler launches a long kernel on a non-blocking stream of its own (its constructor does), which the host's later read needs: the device-wide wait covers it, waiting for main's stream s alone does not (the blocking copy after it does not wait for a non-blocking stream)
// no-edit: R010
// expect: R006 "the declaration 'Filler fill(b, n);' (line 34) runs the constructor of 'Filler'"
// options: --target cuda
#include <cstdio>
__global__ void spin_then_fill(int* out, int n, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) { }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 7;
}
__global__ void twice(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
struct Filler {
    cudaStream_t t;
    Filler(int* out, int n)
    {
        cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
        spin_then_fill<<<(n + 255) / 256, 256, 0, t>>>(out, n, 200000000LL);
    }
    ~Filler() { cudaStreamDestroy(t); }
};
int main()
{
    const int n = 1024;
    int *a, *b;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemsetAsync(b, 0, n * sizeof(int), s);
    cudaStreamSynchronize(s);
    Filler fill(b, n);
    cudaMemsetAsync(a, 0, n * sizeof(int), s);
    twice<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    cudaDeviceSynchronize();
    int h[1024];
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 7;
    if (wrong) {
        printf("FAIL: %d of %d elements the constructor's kernel writes were read before it finished\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
