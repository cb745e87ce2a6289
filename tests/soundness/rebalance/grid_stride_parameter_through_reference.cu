// soundness: must-refuse
// why: bump(seed) takes the parameter by reference and changes it on every pass: the value a pass stores depends on the passes its thread made, which the launch's shape decides
// no-edit: L007,L008
// expect: L009 "bump"
#include <cstdio>
__device__ void bump(unsigned& state) { state = state * 1664525u + 1013904223u; }

__global__ void sequence(unsigned* out, int n, unsigned seed)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        bump(seed);
        out[i] = seed;
    }
}

int main()
{
    const int n = 1 << 16, blocks = 8, threads = 512;
    unsigned* out;
    cudaMallocManaged(&out, n * sizeof(unsigned));
    sequence<<<blocks, threads>>>(out, n, 7u);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        unsigned want = 7u;
        for (int k = 0; k <= i / (blocks * threads); ++k) want = want * 1664525u + 1013904223u;
        if (out[i] != want) { printf("FAIL at %d: %u, not %u\n", i, out[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
