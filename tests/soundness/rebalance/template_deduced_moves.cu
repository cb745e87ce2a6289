// soundness: must-apply
// why: the launch deduces T from an int pointer: T is int, its T(x) a cast
// edit: L007 "256"
// output-has: "scale<<<(n + 255) / 256, 256>>>"
#include <cstdio>

template <typename T>
__global__ void scale(T* __restrict__ y, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i] + T(7) / T(2);
}

int main()
{
    const int n = 100000;
    int *y;
    cudaMallocManaged(&y, n * sizeof(int));
    for (int i = 0; i < n; ++i) y[i] = i % 1000;
    scale<<<(n + 1023) / 1024, 1024>>>(y, 3, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = 3 * (i % 1000) + 3;       // 7 / 2 in int arithmetic
        if (y[i] != want) { printf("FAIL at %d: %d, not %d\n", i, y[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
