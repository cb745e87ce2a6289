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

// cu2hip: fused_decay_source does the work of decay, source, launched one after another in simulate
__global__ void fused_decay_source(float *u, float k, int n, const float *s)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float u_v = u[i];
        float s_v = s[i];
        {   // decay
            u_v *= k;
        }
        {   // source
            u_v = u_v + s_v;
        }
        u[i] = u_v;
    }
}

void simulate(float *__restrict__ u, const float *__restrict__ s, int n, int steps) {
    for (int step = 0; step < steps; ++step) {
        fused_decay_source<<<132, 256>>>(u, 0.99f, n, s);
    }
}
