__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
int main() { float* x = nullptr; scale<<<4, 128>>>(x, 512); return 0; }
