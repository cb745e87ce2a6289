// soundness: must-refuse
// why: `buf = 7` calls DeviceBuffer's operator=, which launches a long kernel on the buffer's non-blocking stream: the host's later read needs the device-wide wait, not only main's stream s
// no-edit: R010
// expect: R006 "'buf = 7' (line 39) may call the file's operator= (line 19), which launches spin_then_fill"
// options: --target cuda
#include <cstdio>
__global__ void spin_then_fill(int* out, int n, int value, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) { }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}
__global__ void twice(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
struct DeviceBuffer {
    int* p;
    int n;
    cudaStream_t t;
    DeviceBuffer& operator=(int value)
    {
        spin_then_fill<<<(n + 255) / 256, 256, 0, t>>>(p, n, value, 200000000LL);
        return *this;
    }
};
int main()
{
    const int n = 1024;
    int *a, *b;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaStream_t s, t;
    cudaStreamCreate(&s);
    cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
    cudaMemsetAsync(b, 0, n * sizeof(int), s);
    cudaStreamSynchronize(s);
    DeviceBuffer buf = {b, n, t};
    cudaMemsetAsync(a, 0, n * sizeof(int), s);
    twice<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    buf = 7;
    cudaDeviceSynchronize();
    int h[1024];
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 7;
    if (wrong) {
        printf("FAIL: %d of %d elements operator= writes were read before its kernel finished\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
