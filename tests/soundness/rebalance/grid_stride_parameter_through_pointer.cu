// soundness: must-refuse
// why: the loop changes the parameter count through a pointer to it: the count a pass stores depends on the passes its thread made before
// no-edit: L007,L008
// expect: L009 "&count"
#include <cstdio>
__global__ void counted(int* out, int n, int count)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int* c = &count;
        out[i] = (*c)++;
    }
}

int main()
{
    const int n = 1 << 16, blocks = 8, threads = 512;
    int* out;
    cudaMallocManaged(&out, n * sizeof(int));
    counted<<<blocks, threads>>>(out, n, 0);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != i / (blocks * threads)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
