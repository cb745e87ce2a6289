#include <cstdio>
#include "launch.cuh"

typedef bool (*launcher)(int *, int *, int);
launcher wide = &launch<1024>;

int main()
{
    int *d, h[2048];
    cudaMalloc(&d, sizeof h);
    bool ok = launch<64>(d, h, 1) && wide(d, h, 2);
    cudaFree(d);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
