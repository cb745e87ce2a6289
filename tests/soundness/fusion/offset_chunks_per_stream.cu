// soundness: must-apply
// why: each stream's chunk of three cudaMalloc'd buffers is passed as &buf[offset] to both launches, with offset unchanged between them: the chunks of different buffers are different memory, and each &buf[offset] is the same pointer in both launches, so one thread doing both bodies on its own element computes the same values
// edit: F001 "fused_split_combine"
// output-has: ", 0, stream[s]>>>(chunk, &d_in[offset], &d_lo[offset], &d_hi[offset], &d_out[offset]);"
// output-has: ", 0, stream[streams]>>>(rest, &d_in[offset], &d_lo[offset], &d_hi[offset], &d_out[offset]);"
#include <cstdio>
#include <cuda_runtime.h>

__global__ void split(int n, const float* in, float* lo, float* hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        lo[i] = in[i] - 0.5f;
        hi[i] = in[i] * 3.0f;
    }
}

__global__ void combine(int n, const float* lo, const float* hi, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = hi[i] - 2.0f * lo[i];
}

int main()
{
    const int n = 100003, streams = 4, block = 128;
    const int chunk = n / streams;
    float* h_in = new float[n];
    float* h_out = new float[n];
    for (int i = 0; i < n; ++i) h_in[i] = (float)(i % 97) * 0.25f;
    float *d_in, *d_lo, *d_hi, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_lo, n * sizeof(float));
    cudaMalloc(&d_hi, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaStream_t stream[streams + 1];
    for (int s = 0; s <= streams; ++s) cudaStreamCreate(&stream[s]);
    int offset;
    for (int s = 0; s < streams; ++s) {
        offset = s * chunk;
        cudaMemcpyAsync(&d_in[offset], &h_in[offset], chunk * sizeof(float), cudaMemcpyHostToDevice, stream[s]);
        split<<<(chunk + block - 1) / block, block, 0, stream[s]>>>(chunk, &d_in[offset], &d_lo[offset], &d_hi[offset]);
        combine<<<(chunk + block - 1) / block, block, 0, stream[s]>>>(chunk, &d_lo[offset], &d_hi[offset], &d_out[offset]);
        cudaMemcpyAsync(&h_out[offset], &d_out[offset], chunk * sizeof(float), cudaMemcpyDeviceToHost, stream[s]);
    }
    const int rest = n % streams;
    if (rest != 0) {
        offset = streams * chunk;
        cudaMemcpyAsync(&d_in[offset], &h_in[offset], rest * sizeof(float), cudaMemcpyHostToDevice, stream[streams]);
        split<<<(rest + block - 1) / block, block, 0, stream[streams]>>>(rest, &d_in[offset], &d_lo[offset], &d_hi[offset]);
        combine<<<(rest + block - 1) / block, block, 0, stream[streams]>>>(rest, &d_lo[offset], &d_hi[offset], &d_out[offset]);
        cudaMemcpyAsync(&h_out[offset], &d_out[offset], rest * sizeof(float), cudaMemcpyDeviceToHost, stream[streams]);
    }
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float x = (float)(i % 97) * 0.25f;
        float want = x * 3.0f - 2.0f * (x - 0.5f);
        if (h_out[i] != want) {
            if (bad < 5) printf("FAIL at %d: %f, not %f\n", i, h_out[i], want);
            ++bad;
        }
    }
    for (int s = 0; s <= streams; ++s) cudaStreamDestroy(stream[s]);
    cudaFree(d_in);
    cudaFree(d_lo);
    cudaFree(d_hi);
    cudaFree(d_out);
    delete[] h_in;
    delete[] h_out;
    if (bad) return 1;
    printf("OK\n");
    return 0;
}
