// soundness: must-refuse
// why: launch<1024> is only taken by address and called through the pointer: a bound from the direct call launch<64> alone would make that launch fail
// options: --no-rebalance
// no-edit: L001
// expect: L002 "other than in a call"
#include <cstdio>

__global__ void fill(int *out, int base)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}

template <int B>
bool launch(int *d, int *h, int base)
{
    fill<<<2, B>>>(d, base);
    if (cudaGetLastError() != cudaSuccess) return false;
    cudaMemcpy(h, d, 2 * B * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 2 * B; i++)
        if (h[i] != base + i % B) return false;
    return true;
}

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    bool (*wide)(int *, int *, int) = &launch<1024>;
    bool ok = launch<64>(d, h, 1) && wide(d, h, 2);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
