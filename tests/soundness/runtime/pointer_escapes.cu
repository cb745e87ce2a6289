// soundness: must-refuse
// why: the loop keeps each iteration's pointer in a list that the program reads after the loop; hoisted, every entry would be one buffer, freed once
// no-edit: R001
// expect: R002 "stores or overwrites it"
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
float* history[16];
void run(int n)
{
    for (int it = 0; it < 16; ++it) {
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        history[it] = d;
        cudaFree(d);
    }
}
