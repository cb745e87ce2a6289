// cu2hip-options: --target cuda --ignore L
// Guards written both ways, host arithmetic and error checks between the launches; t is
// read on the host after the chain, so its store stays.
#include <cstdio>
#include <cstdlib>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

__device__ float relu(float v) { return v > 0.0f ? v : 0.0f; }

__global__ void axpb(const float *x, float *t, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    t[i] = a * x[i] + b;
}

__global__ void activate(float *t, int n) {
    const int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < n) {
        t[idx] = relu(t[idx]);
    }
}

__global__ void scale_into(const float *t, float *y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float r = t[i] * s;
    for (int k = 0; k < 2; ++k)
        r = relu(r - 0.5f);
    y[i] = r;
}

// cu2hip: fused_axpb_activate_scale_into does the work of axpb, activate, scale_into, launched one after another in run
// cu2hip: y[i] is not stored: y is a local of run that nothing reads after this chain: only its allocation, this chain's launches and its cudaFree mention it
__global__ void fused_axpb_activate_scale_into(const float *x, float *t, float a, float b, int n, float *y, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x_v = x[i];
        float t_v;
        float y_v;
        {   // axpb
            t_v = a * x_v + b;
        }
        {   // activate
            t_v = relu(t_v);
        }
        {   // scale_into
            float r = t_v * s;
            for (int k = 0; k < 2; ++k)
                r = relu(r - 0.5f);
            y_v = r;
        }
        t[i] = t_v;
        (void)y_v;      // dead: not stored
    }
}

void run(float *t_host, int n, float alpha) {
    float *x, *t, *y;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&t, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    int blocks = (n + 127) / 128;
    CHECK(cudaGetLastError());
    float twice = alpha * 2.0f;
    CHECK(cudaGetLastError());
    fused_axpb_activate_scale_into<<<blocks, 128>>>(x, t, alpha, 1.0f, n, y, twice);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(t_host, t, n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaFree(x);
    cudaFree(t);
    cudaFree(y);
}
