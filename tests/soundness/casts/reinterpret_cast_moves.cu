// soundness: must-apply
// why: reinterpret_cast and const_cast convert a pointer: they run no code of a class, so they call nothing
// edit: L007 "256"
#include <cstdio>
#include <cstring>

__device__ void bump(float *p)
{
    // Adds one to the float's bit pattern as an integer: the next float up.
    unsigned int *bits = reinterpret_cast<unsigned int *>(p);
    *bits += 1u;
}

__global__ void k(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float *slot = const_cast<float *>(in) + i;
        out[i] = *slot;
        bump(&out[i]);
    }
}

int main()
{
    const int n = 1000;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    for (int i = 0; i < n; ++i) in[i] = 1.0f + i;
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        float want = 1.0f + i;
        unsigned int bits;
        memcpy(&bits, &want, sizeof bits);
        bits += 1u;
        memcpy(&want, &bits, sizeof bits);
        if (out[i] != want) { printf("FAIL at %d: %a, want %a\n", i, out[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
