// soundness: must-apply
// why: the second launch asks for 200 KiB of shared memory, more than a block may have without opting in, so it fails as written and inside the capture; every graph call is checked and the loop falls back to the launches as written: the first kernel runs 4 times, the second never, and the launch error is still reported, where an unchecked graph was never made and launching it crashed
// edit: R012 "= false;"
// edit: R012 "!= nullptr;"
// options: --target cuda --ignore F
#include <cstdio>
__global__ void count(int* c) { atomicAdd(&c[0], 1); }
__global__ void big(int* c) { extern __shared__ int scratch[]; scratch[threadIdx.x] = 1; atomicAdd(&c[1], scratch[threadIdx.x]); }
int main()
{
    int* c;
    cudaMalloc(&c, 2 * sizeof(int));
    cudaMemset(c, 0, 2 * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int it = 0; it < 4; ++it) {
        count<<<1, 1, 0, s>>>(c);
        big<<<1, 1, 200 * 1024, s>>>(c);
    }
    cudaError_t launch = cudaGetLastError();
    cudaError_t ran = cudaStreamSynchronize(s);
    int h[2] = {-1, -1};
    cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
    if (launch == cudaSuccess || ran != cudaSuccess || h[0] != 4 || h[1] != 0) {
        printf("FAIL: launch error %s, stream %s, counts %d %d\n", cudaGetErrorString(launch), cudaGetErrorString(ran),
               h[0], h[1]);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
