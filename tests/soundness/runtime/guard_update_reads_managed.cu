// soundness: must-refuse
// why: the loop's update reads a managed step that each iteration's kernel writes; only the free's device-wide wait at the end of the iteration made that read see the kernel's write: hoisted, the update could read it while the kernel runs (a stale step, or a fault where the device and the host cannot share managed memory at once)
// no-edit: R001
// expect: R002 "the loop's update reads '*step'"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void advance(int* step, float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f; if (i == 0) *step = 2; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 10;
    const int n = 1 << 20;
    int* step;
    cudaMallocManaged(&step, sizeof(int));
    *step = 1;
    int trips = 0;
    for (int it = 0; it < repeat; it += *step) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        cudaMemset(d, 0, n * sizeof(float));
        advance<<<(n + 255) / 256, 256>>>(step, d, n);
        ++trips;
        cudaFree(d);
    }
    cudaDeviceSynchronize();
    cudaFree(step);
    if (trips != (repeat + 1) / 2) { printf("FAIL: %d trips, want %d\n", trips, (repeat + 1) / 2); return 1; }
    printf("PASS %d trips\n", trips);
    return 0;
}
