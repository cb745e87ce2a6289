// soundness: must-refuse
// why: `int v = in[i];` runs the class template's conversion operator, which reads gridDim.x
// no-edit: L007
// expect: L009 "the file's Q::operator T uses gridDim"
#include <cstdio>
template <typename T> struct Q
{
    T v;
    __device__ operator T() const { return v + (T)gridDim.x; }
};

__global__ void k(const Q<int> *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        out[i] = v;
    }
}

int main()
{
    const int n = 1000;
    Q<int> *in;
    int *out;
    cudaMallocManaged(&in, n * sizeof(Q<int>));
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) in[i].v = i;
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    // (1000 + 127) / 128 = 8 blocks
    for (int i = 0; i < n; ++i)
        if (out[i] != i + 8) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
