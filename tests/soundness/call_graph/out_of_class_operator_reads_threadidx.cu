// soundness: must-refuse
// why: the operator* defined out of its class (R::operator*) reads threadIdx.x, which another block size renumbers
// no-edit: L007
// expect: L009 "the file's R::operator* uses threadIdx"
#include <cstdio>
struct R
{
    int x;
    __device__ R operator*(int s) const;
};
__device__ R R::operator*(int s) const { R r; r.x = x * s + (int)threadIdx.x; return r; }

__global__ void k(const R *in, R *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2;
}

int main()
{
    const int n = 1000;
    R *in, *out;
    cudaMallocManaged(&in, n * sizeof(R));
    cudaMallocManaged(&out, n * sizeof(R));
    for (int i = 0; i < n; ++i) in[i].x = i;
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i].x != 2 * i + i % 128) { printf("FAIL at %d: %d\n", i, out[i].x); return 1; }
    printf("OK\n");
    return 0;
}
