// 2D five-point stencil with a statically sized shared-memory tile plus a
// one-cell halo, launched on a dim3 grid over a domain that is not a multiple of
// the block. Two ping-pong iterations, followed by a back-to-back chain of small
// elementwise kernels on the same stream. Checked against a host reference.
#include "stencil2d_shared.cuh"
#include <cmath>

using stencil::Coeffs;

template <int BX, int BY>
__global__ void stencil5(const float* __restrict__ in, float* __restrict__ out, int w, int h, Coeffs c)
{
    __shared__ float tile[BY + 2][BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx;
    const int y = blockIdx.y * BY + ty;

    auto load = [&](int gx, int gy) -> float {
        return (gx >= 0 && gy >= 0 && gx < w && gy < h) ? in[gy * w + gx] : 0.0f;
    };

    tile[ty + 1][tx + 1] = load(x, y);
    if (tx == 0) tile[ty + 1][0] = load(x - 1, y);
    if (tx == BX - 1) tile[ty + 1][BX + 1] = load(x + 1, y);
    if (ty == 0) tile[0][tx + 1] = load(x, y - 1);
    if (ty == BY - 1) tile[BY + 1][tx + 1] = load(x, y + 1);
    __syncthreads();

    if (x < w && y < h) {
        float sum = tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1];
        out[y * w + x] = c.center * tile[ty + 1][tx + 1] + c.neighbour * sum;
    }
}

__global__ void init_grid(float* g, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) g[y * w + x] = static_cast<float>((x * 7 + y * 3) % 10);
}

__global__ void scale(float* v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= s;
}

__global__ void offset(float* v, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += b;
}

__global__ void clamp_min(float* v, float lo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = fmaxf(v[i], lo);
}

int main()
{
    const int W = 300, H = 200, N = W * H;
    const Coeffs c{0.5f, 0.125f};
    using namespace stencil;

    float *d_a, *d_b;
    CUDA_CHECK(cudaMalloc(&d_a, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, N * sizeof(float)));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    dim3 block(kBlockX, kBlockY);
    dim3 grid((W + kBlockX - 1) / kBlockX, (H + kBlockY - 1) / kBlockY);
    init_grid<<<grid, block, 0, stream>>>(d_a, W, H);
    stencil5<kBlockX, kBlockY><<<grid, block, 0, stream>>>(d_a, d_b, W, H, c);
    stencil5<kBlockX, kBlockY><<<grid, block, 0, stream>>>(d_b, d_a, W, H, c);
    CUDA_CHECK(cudaGetLastError());

    // elementwise post-processing: v = max(2 * v - 3, 0)
    const int threads = 256, blocks = (N + threads - 1) / threads;
    scale<<<blocks, threads, 0, stream>>>(d_a, 2.0f, N);
    offset<<<blocks, threads, 0, stream>>>(d_a, -3.0f, N);
    clamp_min<<<blocks, threads, 0, stream>>>(d_a, 0.0f, N);
    CUDA_CHECK(cudaGetLastError());

    std::vector<float> got(N);
    CUDA_CHECK(cudaMemcpyAsync(got.data(), d_a, N * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    std::vector<float> g0(N), g1(N);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) g0[y * W + x] = static_cast<float>((x * 7 + y * 3) % 10);
    reference_step(g0, g1, W, H, c);
    reference_step(g1, g0, W, H, c);

    int bad = 0;
    for (int i = 0; i < N; ++i) {
        float want = std::fmax(2.0f * g0[i] - 3.0f, 0.0f);
        if (std::fabs(got[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
            if (bad < 8) fprintf(stderr, "(%d,%d) = %f, want %f\n", i % W, i / W, got[i], want);
            ++bad;
        }
    }

    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
