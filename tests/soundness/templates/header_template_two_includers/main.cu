#include <cstdio>
#include "launch.cuh"

bool wide(int *d, int *h);

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    bool ok = launch<128>(d, h, 1) && wide(d, h);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
