// soundness: must-refuse
// why: `a + b` of two int2 runs the file's free operator+, which reads blockDim.x
// no-edit: L007
// expect: L009 "the file's operator+ uses blockDim"
#include <cstdio>
__device__ int2 operator+(int2 a, int2 b) { return make_int2(a.x + b.x + (int)blockDim.x, a.y + b.y); }

__global__ void k(const int2 *in, int2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + in[i];
}

int main()
{
    const int n = 1000;
    int2 *in, *out;
    cudaMallocManaged(&in, n * sizeof(int2));
    cudaMallocManaged(&out, n * sizeof(int2));
    for (int i = 0; i < n; ++i) in[i] = make_int2(i, -i);
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i].x != 2 * i + 128 || out[i].y != -2 * i) { printf("FAIL at %d: %d\n", i, out[i].x); return 1; }
    printf("OK\n");
    return 0;
}
