// soundness: must-refuse
// why: sscanf writes threads through &threads
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'threads' is taken"
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


int main(int argc, char** argv)
{
    int threads = 128, n = 1 << 20;
    if (argc > 1) sscanf(argv[1], "%d", &threads);
    float* x = nullptr;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    return 0;
}
