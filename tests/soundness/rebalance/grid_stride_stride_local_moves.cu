// soundness: must-apply
// why: the grid-stride loop starts from a local holding the global id and steps by a local holding blockDim.x * gridDim.x, both of the index's type and named nowhere else: each element's value is a function of its index alone, so the launch moves to another block size
// edit: L007 "256"
#include <cstdio>
__global__ void affine(float* out, const float* in, long n, float a, float b)
{
    const long first = blockIdx.x * blockDim.x + threadIdx.x;
    const long step = blockDim.x * gridDim.x;
    for (long i = first; i < n; i += step) out[i] = a * in[i] + b;
}

int main()
{
    const long n = 1 << 16;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    for (long i = 0; i < n; ++i) in[i] = (float)(i % 97);
    affine<<<8, 512>>>(out, in, n, 2.0f, 3.0f);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i)
        if (out[i] != 2.0f * (float)(i % 97) + 3.0f) { printf("FAIL at %ld: %g\n", i, out[i]); return 1; }
    printf("PASS\n");
    return 0;
}
