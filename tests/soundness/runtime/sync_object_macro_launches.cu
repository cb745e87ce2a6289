// soundness: must-refuse
// why: the object-like macro STEP, used between main's launch and its synchronisation, calls a function that launches a long kernel on a non-blocking stream: the host's later read needs the device-wide wait, not only main's stream s
// no-edit: R010
// expect: R006 "the macro STEP (line 33) expands to 'launch_other()', a call of launch_other"
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
static cudaStream_t other;
static int* target;
static const int n = 1024;
void launch_other() { spin_then_fill<<<(n + 255) / 256, 256, 0, other>>>(target, n, 200000000LL); }
#define STEP launch_other()
int main()
{
    int *a, *b;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    cudaMemsetAsync(b, 0, n * sizeof(int), s);
    cudaStreamSynchronize(s);
    target = b;
    cudaMemsetAsync(a, 0, n * sizeof(int), s);
    twice<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    STEP;
    cudaDeviceSynchronize();
    int h[1024];
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 7;
    if (wrong) {
        printf("FAIL: %d of %d elements the macro's kernel writes were read before it finished\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
