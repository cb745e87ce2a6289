// soundness: must-refuse
// why: the body steps its index on by one more element each pass, so which elements a thread visits (and which it skips) depends on the grid and block: moving the launch writes other elements
// no-edit: L007,L008
// expect: L009 "changes i"
#include <cstdio>
__global__ void skipping(int* out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = 1;
        i += 1;
    }
}

int main()
{
    const int n = 1 << 16, blocks = 8, threads = 512;
    const int stride = blocks * threads;
    int* out;
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) out[i] = 0;
    skipping<<<blocks, threads>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        // thread t visits t, t + (s + 1), t + 2 (s + 1), ...: i is visited when i mod (s + 1) < s
        int want = i % (stride + 1) != stride;
        if (out[i] != want) { printf("FAIL at %d: %d, not %d\n", i, out[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
