// soundness: must-apply
// why: the launching template is given a macro, an enumerator, a constexpr global and sizeof(double) * 16 at its calls: the bound is the largest, 256
// options: --no-rebalance
// edit: L001 "__launch_bounds__(256)"
#include <cstdio>

#define SMALL 64
enum { kMedium = 96 };
constexpr int kLarge = 256;

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
    int *d, h[512];
    cudaMalloc(&d, sizeof h);
    bool ok = launch<SMALL>(d, h, 1) && launch<kMedium>(d, h, 2) && launch<kLarge>(d, h, 3) &&
              launch<sizeof(double) * 16>(d, h, 4);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
