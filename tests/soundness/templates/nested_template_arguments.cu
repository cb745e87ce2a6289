// soundness: must-apply
// why: HeCBench scan's shape: runTest<T, N> launches N / 2 threads and is called only from run<N>, itself called with 128 and 2048: every instantiation is known, the largest block is 1024
// options: --no-rebalance
// edit: L001 "__launch_bounds__(1024)"
#include <cstdio>

template <typename T, int N>
__global__ void block_sums(const T *in, T *out)
{
    __shared__ T part[N / 2];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * N + 2 * t] + in[blockIdx.x * N + 2 * t + 1];
    __syncthreads();
    for (int s = N / 4; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = part[0];
}

template <typename T, int N>
bool runTest(int blocks)
{
    int n = blocks * N;
    T *h = new T[n];
    for (int i = 0; i < n; i++) h[i] = (T)(i % 7);
    T *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(T));
    cudaMalloc(&d_out, blocks * sizeof(T));
    cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice);
    block_sums<T, N><<<blocks, N / 2>>>(d_in, d_out);
    bool ok = cudaGetLastError() == cudaSuccess;
    T *got = new T[blocks];
    cudaMemcpy(got, d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks && ok; b++) {
        T want = 0;
        for (int i = 0; i < N; i++) want += h[b * N + i];
        ok = got[b] == want;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    delete[] h;
    delete[] got;
    return ok;
}

template <int N>
bool run(int blocks)
{
    return runTest<int, N>(blocks) && runTest<float, N>(blocks);
}

int main()
{
    bool ok = run<128>(5) && run<2048>(3);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
