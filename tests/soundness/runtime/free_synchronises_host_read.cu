// soundness: must-refuse
// why: the host reads the managed buffer at the start of each iteration, after the previous iteration's launch; only cudaFree's device-wide synchronisation at the end of that iteration made the read safe, and hoisted the free would be gone
// no-edit: R001
// expect: R002 "host code at line 12 runs before the next iteration synchronises"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
float run(float* managed, int n)
{
    float sum = 0.0f;
    for (int it = 0; it < 8; ++it) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        sum += managed[0];
        twice<<<(n + 255) / 256, 256>>>(managed, n);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaFree(d);
    }
    return sum;
}
