// cu2hip-options: --ignore L
// The host reads between the launches: the wait is needed, R005 is not reported.
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
