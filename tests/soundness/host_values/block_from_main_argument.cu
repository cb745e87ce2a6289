// soundness: must-refuse
// why: the block size comes from argc
// no-edit: L001
// no-edit: L007
// expect: L002 "'argc' is a parameter of main"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


int main(int argc, char** argv)
{
    int n = 1 << 20;
    int threads = argc > 1 ? 1024 : 128;
    float* x = nullptr;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    return 0;
}
