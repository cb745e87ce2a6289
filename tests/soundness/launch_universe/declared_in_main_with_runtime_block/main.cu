#include <cstdlib>
__global__ void scale(float* x, int n);

int main(int argc, char** argv)
{
    int n = 1 << 20;
    int threads = argc > 1 ? atoi(argv[1]) : 256;
    float* x = nullptr;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    return 0;
}
