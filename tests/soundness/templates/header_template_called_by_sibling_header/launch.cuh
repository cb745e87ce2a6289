#pragma once
static __global__ void fill(int *out, int base)
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
