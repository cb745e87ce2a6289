// soundness: must-refuse
// why: the size is parsed from argv before the loop but recomputed from it in every iteration, growing: hoisted, the first (smallest) allocation would be written past its end by the later iterations
// no-edit: R001
// expect: R002 "'n' is written in the loop"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void fill(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = i; }
int main(int argc, char** argv)
{
    const int base = argc > 1 ? atoi(argv[1]) : 1 << 16;
    int repeat = argc > 2 ? atoi(argv[2]) : 5;
    int n = base;
    long long sum = 0, want = 0;
    static int h[16 << 16];
    for (int it = 0; it < repeat; ++it) {
        n = base * (it + 1);
        int* d;
        cudaMalloc(&d, n * sizeof(int));
        fill<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
        sum += h[n - 1];
        want += n - 1;
        cudaFree(d);
    }
    if (cudaGetLastError() != cudaSuccess || sum != want) { printf("FAIL: %lld want %lld\n", sum, want); return 1; }
    printf("PASS %lld\n", sum);
    return 0;
}
