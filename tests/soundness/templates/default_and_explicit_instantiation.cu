// soundness: must-apply
// why: launch<B = 512> is called as launch<>() and launch<128>(), and explicitly instantiated for 320: the bound is 512
// options: --no-rebalance
// edit: L001 "__launch_bounds__(512)"
#include <cstdio>

__global__ void fill(int *out, int base)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}

template <int B = 512>
bool launch(int *d, int *h, int base)
{
    fill<<<2, B>>>(d, base);
    if (cudaGetLastError() != cudaSuccess) return false;
    cudaMemcpy(h, d, 2 * B * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 2 * B; i++)
        if (h[i] != base + i % B) return false;
    return true;
}

template bool launch<320>(int *, int *, int);

int main()
{
    int *d, h[1024];
    cudaMalloc(&d, sizeof h);
    bool ok = launch<>(d, h, 1) && launch<128>(d, h, 2) && launch<320>(d, h, 3);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
