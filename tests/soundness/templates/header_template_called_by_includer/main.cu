#include <cstdio>
#include "launch.cuh"

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    bool ok = narrow(d, h) && launch<1024>(d, h, 2);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
