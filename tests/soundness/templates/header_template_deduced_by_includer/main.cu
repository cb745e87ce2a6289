#include <cstdio>
#include "launch.cuh"

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    bool ok = launch<64>(d, h, 1, Tag<64>()) && launch(d, h, 2, Tag<1024>());
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
