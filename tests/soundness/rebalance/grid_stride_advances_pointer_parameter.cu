// soundness: must-refuse
// why: each pass moves the input pointer on by one element, so the element a pass reads depends on how many passes its thread made before: a new block size or grid reads other elements
// no-edit: L007,L008
// expect: L009 "changes in"
#include <cstdio>
__global__ void shifted(float* out, const float* in, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = in[i];
        in += 1;
    }
}

int main()
{
    const int n = 1 << 16, blocks = 8, threads = 512;
    float *in, *out;
    cudaMallocManaged(&in, 2 * n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    for (int i = 0; i < 2 * n; ++i) in[i] = (float)i;
    shifted<<<blocks, threads>>>(out, in, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (float)(i + i / (blocks * threads))) { printf("FAIL at %d: %g\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
