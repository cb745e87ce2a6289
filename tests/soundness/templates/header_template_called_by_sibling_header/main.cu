#include <cstdio>
#include "launch.cuh"
#include "twice.cuh"

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    bool ok = launch<64>(d, h, 1) && twice<1024>(d, h);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
