// soundness: must-apply
// why: the host buffer is declared NULL in C style and allocated by its one assignment from malloc, a statement of its declaration's block before any use of it; it is then filled, copied with blocking cudaMemcpy in a loop and freed once after every use: pinned from that assignment on, every copy reads and writes the same bytes
// edit: R007 "cudaMallocHost(&h, bytes)"
// edit: R007 "cudaFreeHost(h)"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void add(unsigned int* x, unsigned int n, unsigned int v)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += v;
}
int main()
{
    const unsigned int n = 1 << 18;
    const size_t bytes = n * sizeof(unsigned int);
    unsigned int* h = NULL;
    unsigned int* d = NULL;
    cudaMalloc(&d, bytes);
    h = (unsigned int*)malloc(bytes);
    for (unsigned int i = 0; i < n; ++i) h[i] = i % 97;
    for (unsigned int it = 1; it <= 5; ++it) {
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
        add<<<(n + 255) / 256, 256>>>(d, n, it);
        cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    }
    unsigned int wrong = 0;
    for (unsigned int i = 0; i < n; ++i) wrong += h[i] != i % 97 + 15;
    free(h);
    cudaFree(d);
    if (wrong) {
        printf("FAIL: %u of %u elements wrong\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
