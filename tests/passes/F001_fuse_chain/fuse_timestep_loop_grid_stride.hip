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
    int cu2hip_graph_pending = 0;
    cudaGraph_t cu2hip_graph = nullptr;
    cudaGraphExec_t cu2hip_graph_exec = nullptr;
    cudaStream_t cu2hip_graph_stream = nullptr;
    bool cu2hip_graph_ok = cudaStreamCreateWithFlags(&cu2hip_graph_stream, cudaStreamNonBlocking) == cudaSuccess &&
            cudaStreamBeginCapture(cu2hip_graph_stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
    if (cu2hip_graph_ok) {
        for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {
            fused_decay_source<<<132, 256, 0, cu2hip_graph_stream>>>(u, 0.99f, n, s);
        }
        cu2hip_graph_ok = cudaStreamEndCapture(cu2hip_graph_stream, &cu2hip_graph) == cudaSuccess && cu2hip_graph != nullptr;
        cu2hip_graph_ok = cu2hip_graph_ok && cudaGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, 0) == cudaSuccess;
    }
    for (int step = 0; step < steps; ++step) {
        if (!cu2hip_graph_ok) {
            fused_decay_source<<<132, 256>>>(u, 0.99f, n, s);
        } else if (++cu2hip_graph_pending == 16) {
            cu2hip_graph_pending = 0;
            if (cudaGraphLaunch(cu2hip_graph_exec, 0) != cudaSuccess) {
                cu2hip_graph_ok = false;
                for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {
                    fused_decay_source<<<132, 256>>>(u, 0.99f, n, s);
                }
            }
        }
    }
    for (int cu2hip_graph_k = 0; cu2hip_graph_k < cu2hip_graph_pending; ++cu2hip_graph_k) {
        fused_decay_source<<<132, 256>>>(u, 0.99f, n, s);
    }
    if (cu2hip_graph_exec != nullptr) cudaGraphExecDestroy(cu2hip_graph_exec);
    if (cu2hip_graph != nullptr) cudaGraphDestroy(cu2hip_graph);
    if (cu2hip_graph_stream != nullptr) cudaStreamDestroy(cu2hip_graph_stream);
}
