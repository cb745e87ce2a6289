// soundness: must-apply
// why: the grid-stride loop changes only names declared in its own body (fresh each pass) and reads its parameters: each element's value is a function of its index alone, so the launch moves and its grid is sized from the device
// edit: L007 "256"
// edit: L008 "blocks(256)"
#include <cstdio>
__global__ void affine(float* out, const float* in, int n, float a, float b)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        v *= a;
        int k = i;
        k += 1;
        out[i] = v + b * (float)(k - i);
    }
}

int main()
{
    const int n = 1 << 16;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    for (int i = 0; i < n; ++i) in[i] = (float)(i % 97);
    affine<<<8, 512>>>(out, in, n, 2.0f, 3.0f);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != 2.0f * (float)(i % 97) + 3.0f) { printf("FAIL at %d: %g\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
