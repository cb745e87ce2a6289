__global__ void scale(float* x, int n);

int main()
{
    float* x = nullptr;
    int n = 4096;
    dim3 b(128);
    b.x = 1024;
    scale<<<(n + 1023) / 1024, b>>>(x, n);
    return 0;
}
