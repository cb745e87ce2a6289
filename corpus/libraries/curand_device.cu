// cuRAND device API: per-thread curandState initialised with curand_init,
// uniforms and normals drawn in a kernel, moments reduced on the GPU with warp
// shuffles and double atomics, then checked against the known distributions.
#include <curand_kernel.h>
#include "curand_device_stats.cuh"

constexpr int kThreads = 256;
constexpr int kBlocks = 64;
constexpr int kDrawsPerThread = 64;

__global__ void __launch_bounds__(kThreads) setup_states(curandState* states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    // same seed, a different subsequence per thread, no offset
    curand_init(seed, id, 0, &states[id]);
}

__global__ void __launch_bounds__(kThreads) draw_moments(curandState* states, Moments* m)
{
    __shared__ float partial[4][kThreads / WARP_SIZE];
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];

    float us = 0.f, uss = 0.f, ns = 0.f, nss = 0.f;
    unsigned long long bad = 0;
    for (int i = 0; i < kDrawsPerThread; ++i) {
        float u = curand_uniform(&local);   // (0, 1]
        float z = curand_normal(&local);
        if (!(u > 0.0f && u <= 1.0f)) ++bad;
        us += u;
        uss += u * u;
        ns += z;
        nss += z * z;
    }
    states[id] = local;  // keep the advanced state, as a real simulation would

    us = warp_reduce_sum(us);
    uss = warp_reduce_sum(uss);
    ns = warp_reduce_sum(ns);
    nss = warp_reduce_sum(nss);
    int lane = threadIdx.x % WARP_SIZE;
    int warp = threadIdx.x / WARP_SIZE;
    if (lane == 0) {
        partial[0][warp] = us;
        partial[1][warp] = uss;
        partial[2][warp] = ns;
        partial[3][warp] = nss;
    }
    if (bad) atomicAdd(&m->out_of_range, bad);
    __syncthreads();

    if (threadIdx.x < 4) {
        double s = 0.0;
        for (int w = 0; w < kThreads / WARP_SIZE; ++w) s += partial[threadIdx.x][w];
        double* dst = threadIdx.x == 0 ? &m->uniform_sum
                    : threadIdx.x == 1 ? &m->uniform_sumsq
                    : threadIdx.x == 2 ? &m->normal_sum
                                       : &m->normal_sumsq;
        atomicAdd(dst, s);
    }
}

static Moments run(unsigned long long seed)
{
    curandState* d_states = nullptr;
    Moments* d_m = nullptr;
    const int nthreads = kBlocks * kThreads;
    CUDA_CHECK(cudaMalloc(&d_states, nthreads * sizeof(curandState)));
    CUDA_CHECK(cudaMalloc(&d_m, sizeof(Moments)));
    CUDA_CHECK(cudaMemset(d_m, 0, sizeof(Moments)));

    setup_states<<<kBlocks, kThreads>>>(d_states, seed);
    CUDA_CHECK(cudaGetLastError());
    draw_moments<<<kBlocks, kThreads>>>(d_states, d_m);
    CUDA_CHECK(cudaGetLastError());

    Moments h;
    CUDA_CHECK(cudaMemcpy(&h, d_m, sizeof(Moments), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_states));
    CUDA_CHECK(cudaFree(d_m));
    return h;
}

int main()
{
    const double n = static_cast<double>(kBlocks) * kThreads * kDrawsPerThread;
    Moments m = run(20240601ULL);

    double umean = m.uniform_sum / n;
    double uvar = m.uniform_sumsq / n - umean * umean;
    double zmean = m.normal_sum / n;
    double zvar = m.normal_sumsq / n - zmean * zmean;

    bool ok = true;
    ok &= within("uniform mean", umean, 0.5, 0.005);
    ok &= within("uniform variance", uvar, 1.0 / 12.0, 0.003);
    ok &= within("normal mean", zmean, 0.0, 0.01);
    ok &= within("normal variance", zvar, 1.0, 0.02);
    if (m.out_of_range != 0) {
        fprintf(stderr, "%llu uniforms outside (0,1]\n", m.out_of_range);
        ok = false;
    }

    if (!ok) {
        printf("FAIL\n");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
