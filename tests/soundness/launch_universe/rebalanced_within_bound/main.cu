__global__ void scale(float* x, int n);

int main()
{
    float* x = nullptr;
    int n = 4096;
    scale<<<(n + 1023) / 1024, 1024>>>(x, n);
    return 0;
}
