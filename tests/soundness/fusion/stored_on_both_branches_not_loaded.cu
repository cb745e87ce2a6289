// soundness: must-apply
// why: sign stores y[i] on both sides of its if/else before anything reads it, so the fused kernel need not load y first; z[i] and w[i] are stored on one side only, and keep their loads, so the other side leaves them as they were
// edit: F001 "fused_sign_twice"
// output-lacks: "y_v = y[i]"
// output-has: "z_v = z[i]"
// output-has: "w_v = w[i]"
#include <cstdio>
__global__ void sign(const float* x, float* y, float* z, float* w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (x[i] > 0.0f) { y[i] = x[i]; z[i] = 1.0f; }
        else { y[i] = -x[i]; w[i] = 2.0f; }
    }
}

__global__ void twice(const float* y, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = y[i] * 2.0f;
}

int main()
{
    const int n = 1000;
    float *x, *y, *z, *w, *out;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&z, n * sizeof(float));
    cudaMallocManaged(&w, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    for (int i = 0; i < n; ++i) { x[i] = (i % 2) ? (float)i : (float)-i; y[i] = -1.0f; z[i] = 5.0f; w[i] = 7.0f; }
    sign<<<(n + 255) / 256, 256>>>(x, y, z, w, n);
    twice<<<(n + 255) / 256, 256>>>(y, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        bool positive = i % 2 == 1;
        float want_z = positive ? 1.0f : 5.0f, want_w = positive ? 7.0f : 2.0f;
        if (out[i] != 2.0f * (float)i || y[i] != (float)i || z[i] != want_z || w[i] != want_w) {
            printf("FAIL at %d: out %g y %g z %g w %g\n", i, out[i], y[i], z[i], w[i]);
            return 1;
        }
    }
    printf("OK\n");
    return 0;
}
