#include <cstdio>
#include "kern.h"
int main()
{
    const int n = 1 << 20;
    float *x;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = (float)i;
    run_scale(x, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) if (x[i] != 2.0f * i) { printf("FAIL %d\n", i); return 1; }
    printf("OK\n");
    return 0;
}
