// cu2hip-options: --target cuda --ignore L
// A chain of grid-stride kernels inside a time-step loop: u is read before it is written
// (a register loaded from memory) and stored every step.
__global__ void decay(float *u, float k, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        u[i] *= k;
    }
}

__global__ void source(float *u, const float *s, int n) {
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
        u[j] = u[j] + s[j];
}

void simulate(float *__restrict__ u, const float *__restrict__ s, int n, int steps) {
    for (int step = 0; step < steps; ++step) {
        decay<<<132, 256>>>(u, 0.99f, n);
        source<<<132, 256>>>(u, s, n);
    }
}
