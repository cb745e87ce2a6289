// soundness: must-refuse
// why: under `using namespace std`, `thread worker(...)` starts a host thread that enqueues a long kernel on a non-blocking stream before main's synchronisation (main waits for it to be enqueued): the device-wide wait covers that work, waiting for main's stream s does not
// no-edit: R010
// expect: R006 "the file starts host threads ('thread')"
// options: --target cuda
#include <atomic>
#include <cstdio>
#include <thread>
using namespace std;
__global__ void spin_then_fill(int* out, int n, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) { }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 7;
}
__global__ void twice(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
atomic<int> enqueued(0);
void enqueue_fill(int* out, int n)
{
    cudaStream_t t;
    cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
    spin_then_fill<<<(n + 255) / 256, 256, 0, t>>>(out, n, 200000000LL);
    enqueued = 1;
    cudaStreamDestroy(t);
}
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
    thread worker(enqueue_fill, b, n);
    while (!enqueued) { }
    cudaMemsetAsync(a, 0, n * sizeof(int), s);
    twice<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    cudaDeviceSynchronize();
    worker.join();
    int h[1024];
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 7;
    if (wrong) {
        printf("FAIL: %d of %d elements the thread's kernel writes were read before it finished\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
