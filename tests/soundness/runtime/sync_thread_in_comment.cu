// soundness: must-apply
// why: the file names std::thread only in a comment and a string: it starts no host thread, every piece of device work is on s, which main creates
// edit: R010 "cudaStreamSynchronize(s)"
// options: --target cuda
#include <cstdio>
// An earlier version ran this in a std::thread; now everything is on main's stream.
__global__ void twice(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 2 * (x[i] + 1); }
int main()
{
    const int n = 1024;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemsetAsync(d, 0, n * sizeof(int), s);
    twice<<<(n + 255) / 256, 256, 0, s>>>(d, n); /* no std::thread, no pthread_create, no #pragma omp */
    cudaDeviceSynchronize();
    int h[1024];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 2;
    if (wrong) {
        printf("FAIL: %d of %d elements are not 2 (%s)\n", wrong, n, "std::thread");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
