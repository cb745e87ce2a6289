// soundness: must-apply
// why: make_float4 and make_int2 build a vector value (vector_functions.h): they call nothing
// edit: L007 "256"
#include <cstdio>

__global__ void k(float4 *out, int2 *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = make_float4(1.0f, 2.0f, 3.0f, (float)i);
        idx[i] = make_int2(i, -i);
    }
}

int main()
{
    const int n = 1000;
    float4 *out;
    int2 *idx;
    cudaMallocManaged(&out, n * sizeof(float4));
    cudaMallocManaged(&idx, n * sizeof(int2));
    k<<<(n + 127) / 128, 128>>>(out, idx, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i].x != 1.0f || out[i].w != (float)i || idx[i].x != i || idx[i].y != -i) {
            printf("FAIL at %d\n", i);
            return 1;
        }
    printf("OK\n");
    return 0;
}
