// soundness: must-refuse
// why: the grid-stride loop counts its passes in the parameter pass: how many passes a thread makes depends on the grid and block, so out[i] changes when the launch moves
// no-edit: L007,L008
// expect: L009 "changes pass"
#include <cstdio>
__global__ void passes(int* out, int n, int pass)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = pass;
        pass++;
    }
}

int main()
{
    const int n = 1 << 16, blocks = 8, threads = 512;
    int* out;
    cudaMallocManaged(&out, n * sizeof(int));
    passes<<<blocks, threads>>>(out, n, 0);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != i / (blocks * threads)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
