// soundness: must-refuse
// why: the launching template is a member function, called as r.launch<64>() and r.launch<1024>(): member calls are not read, so nothing bounds the kernel
// options: --no-rebalance
// no-edit: L001
// expect: L002 "other than in a call"
#include <cstdio>

__global__ void fill(int *out, int base)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}

struct Runner {
    int *d, *h;
    template <int B>
    bool launch(int base)
    {
    fill<<<2, B>>>(d, base);
    if (cudaGetLastError() != cudaSuccess) return false;
    cudaMemcpy(h, d, 2 * B * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 2 * B; i++)
        if (h[i] != base + i % B) return false;
    return true;
    }
};

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    Runner r{d, h};
    bool ok = r.launch<64>(1) && r.launch<1024>(2);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
