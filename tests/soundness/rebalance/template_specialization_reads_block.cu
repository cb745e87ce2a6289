// soundness: must-refuse
// why: scale<int> is explicitly specialized with a body that reads blockDim: the template's body is not what runs
// no-edit: L007
// expect: L009 "scale keeps 1024 threads per block"
#include <cstdio>

template <typename T>
__global__ void scale(T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = T(2) * y[i];
}

template <>
__global__ void scale<int>(int* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (int)blockDim.x + y[i];
}

int main()
{
    const int n = 5000;
    int *y;
    cudaMallocManaged(&y, n * sizeof(int));
    for (int i = 0; i < n; ++i) y[i] = i;
    scale<int><<<(n + 1023) / 1024, 1024>>>(y, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (y[i] != 1024 + i) { printf("FAIL at %d: %d, not %d\n", i, y[i], 1024 + i); return 1; }
    printf("OK\n");
    return 0;
}
