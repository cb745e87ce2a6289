// soundness: must-refuse
// why: each iteration's stream is handed to a table the program synchronises later; hoisted, every entry would be one stream, destroyed once
// no-edit: R003
// expect: R004 "stores or overwrites it"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
cudaStream_t pending[8];
void run(float* x, int n)
{
    for (int it = 0; it < 8; ++it) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
        pending[it] = s;
        cudaStreamDestroy(s);
    }
}
