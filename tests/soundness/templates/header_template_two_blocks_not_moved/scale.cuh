#pragma once
static __global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

template <int B>
bool twice(float *d, float *h, int n)
{
    for (int i = 0; i < n; i++) h[i] = (float)i;
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + B - 1) / B, B>>>(d, n);
    if (cudaGetLastError() != cudaSuccess) return false;
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != 2.0f * i) return false;
    return true;
}
