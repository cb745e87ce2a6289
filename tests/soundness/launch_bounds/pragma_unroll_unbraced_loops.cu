// soundness: must-apply
// why: a kernel with #pragma unroll between loop headers and bodies without braces parses, and is bounded by its launch
// options: --no-rebalance
// edit: L001 "__launch_bounds__(256)"
__global__ void sums(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) acc[k] = in[i + k];
    for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int k = 0; k < 16; ++k) acc[k] = acc[k] * 0.5f + acc[(k + 1) % 16];
    float s = 0.0f;
    if (n > 0)
#pragma unroll
        for (int k = 0; k < 16; ++k) s += acc[k];
    out[i] = s;
}

void run(const float* in, float* out, int n) { sums<<<(n + 255) / 256, 256>>>(in, out, n); }
