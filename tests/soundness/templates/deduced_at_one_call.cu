// soundness: must-refuse
// why: launch<B> is called once as launch<64> and once with B deduced from an int[1024] argument: a bound of 64 would make the second launch fail
// options: --no-rebalance
// no-edit: L001
// expect: L002 "does not write it"
#include <cstdio>

__global__ void fill(int *out, int base)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}

template <int B>
bool launch(int *d, int *h, const int (&shape)[B])
{
    int base = shape[0];
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
    static int narrow[64], wide[1024];
    narrow[0] = 1;
    wide[0] = 2;
    cudaMalloc(&d, sizeof h);
    bool ok = launch<64>(d, h, narrow) && launch(d, h, wide);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
