// soundness: must-refuse
// why: `out[i] = v` runs the class's operator=, which reads blockDim.x
// no-edit: L007
// expect: L009 "the file's W::operator= uses blockDim"
#include <cstdio>
struct W
{
    int x;
    __device__ W &operator=(int v) { x = v * (int)blockDim.x; return *this; }
};

__global__ void k(W *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

int main()
{
    const int n = 1000;
    W *out;
    cudaMallocManaged(&out, n * sizeof(W));
    k<<<(n + 127) / 128, 128>>>(out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i].x != i * 128) { printf("FAIL at %d: %d\n", i, out[i].x); return 1; }
    printf("OK\n");
    return 0;
}
