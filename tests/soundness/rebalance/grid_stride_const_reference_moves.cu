// soundness: must-apply
// why: scaled(x, a) takes its parameters by const reference and a by value: nothing a pass does reaches the next, so the launch moves
// edit: L007 "256"
__device__ float scaled(const float& x, const float& a) { return x * a; }

__global__ void scale(float* out, const float* in, int n, float a)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        out[i] = scaled(v, a);
    }
}

void run(float* out, const float* in, int n) { scale<<<8, 512>>>(out, in, n, 2.0f); }
