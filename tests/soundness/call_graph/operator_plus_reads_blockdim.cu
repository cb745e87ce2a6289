// soundness: must-refuse
// why: the class's operator+, which `in[i] + in[i]` runs with no call written, reads blockDim.x
// no-edit: L007
// expect: L009 "the file's V::operator+ uses blockDim"
#include <cstdio>
struct V
{
    int x;
    __device__ V operator+(const V &o) const { V r; r.x = x + o.x + (int)blockDim.x; return r; }
};

__global__ void k(const V *in, V *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + in[i];
}

int main()
{
    const int n = 1000;
    V *in, *out;
    cudaMallocManaged(&in, n * sizeof(V));
    cudaMallocManaged(&out, n * sizeof(V));
    for (int i = 0; i < n; ++i) in[i].x = i;
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i].x != 2 * i + 128) { printf("FAIL at %d: %d\n", i, out[i].x); return 1; }
    printf("OK\n");
    return 0;
}
