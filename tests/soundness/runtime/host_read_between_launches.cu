// soundness: must-refuse
// why: the host reads the managed buffer between two launches of each iteration, so the device-wide wait before the read is needed there: it is neither removed nor reported as debug-only, only its one-stream replacement is named
// no-edit: R
// expect: R006 "cudaStreamSynchronize(s)"
#define CHECK(x) do { if ((x) != cudaSuccess) return; } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
void run(float* managed, int n, cudaStream_t s)
{
    for (int it = 0; it < 8; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(managed, n);
        CHECK(cudaDeviceSynchronize());
        managed[0] = 1.0f;
        twice<<<(n + 255) / 256, 256, 0, s>>>(managed, n);
    }
}
