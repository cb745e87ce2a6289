// soundness: must-refuse
// why: the pinned-buffer rewrite (R007) takes the first round, so launch bounds runs on its output; spare is launched from no file of the tree, so its block sizes are not known: no bound may be written, and it is said (L003) as in a file no rewrite restructured. twice's block comes from argv (L002): nothing is bounded
// no-edit: L001
// expect: L003 "spare is launched from no translated file: not bounded"
// expect: L002 "twice is not bounded"
// output-has: "cudaMallocHost(&h, n * sizeof(float))"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void spare(float* x) { x[threadIdx.x] = -1.0f; }
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
int main(int argc, char** argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 256;
    const int n = 1 << 16;
    float* h = (float*)malloc(n * sizeof(float));
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    int bad = 0;
    for (int it = 0; it < 4; ++it) {
        for (int i = 0; i < n; ++i) h[i] = (float)(i % 7 + it);
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + threads - 1) / threads, threads>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; ++i) if (h[i] != 2.0f * (float)(i % 7 + it)) ++bad;
    }
    cudaFree(d);
    free(h);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
