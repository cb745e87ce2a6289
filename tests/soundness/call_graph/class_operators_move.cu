// soundness: must-apply
// why: the class's operators and constructor see nothing of the block: each thread's work is a function of its global id
// edit: L007 "256"
#include <cstdio>
struct V
{
    int x;
    __device__ V() : x(1) {}
    __device__ V operator+(const V &o) const { V r; r.x = x + o.x; return r; }
    __device__ operator int() const { return x * 3; }
};

__global__ void k(const V *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        V one;
        out[i] = in[i] + one;
    }
}

int main()
{
    const int n = 1000;
    V *in;
    int *out;
    cudaMallocManaged(&in, n * sizeof(V));
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) in[i].x = i;
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != 3 * (i + 1)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
