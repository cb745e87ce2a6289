// soundness: must-refuse
// why: the loop starts from a local of another type than its index (an unsigned char holding the global id wraps at 256): the loop's elements are not the canonical grid-stride loop's, so its body cannot be put in the fused kernel's loop
// no-edit: F001
// expect: F002 "its grid-stride loop's index is int and 'first' is unsigned char"
#include <cstdio>

__global__ void fill(int* __restrict__ y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = 0;
}

__global__ void mark(int* __restrict__ y, int n)
{
    unsigned char first = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = first; i < n; i += blockDim.x * gridDim.x) y[i] = 1;     // the threads that share a start write the same value
}

int main()
{
    const int n = 4096;
    int* y;
    cudaMallocManaged(&y, n * sizeof(int));
    fill<<<4, 256>>>(y, n);
    mark<<<4, 256>>>(y, n);
    cudaDeviceSynchronize();
    // 1024 threads start at 0..255 (four each) and step by 1024: only the elements
    // e with e % 1024 < 256 are marked.
    for (int e = 0; e < n; ++e) {
        int want = e % 1024 < 256 ? 1 : 0;
        if (y[e] != want) { printf("FAIL at %d: %d, not %d\n", e, y[e], want); return 1; }
    }
    printf("PASS\n");
    return 0;
}
