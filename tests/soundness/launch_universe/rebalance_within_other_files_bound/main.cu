__global__ void scale(float* x, int n);

int main()
{
    float* x = nullptr;
    int n = 4096;
    scale<<<(n + 127) / 128, 128>>>(x, n);
    return 0;
}
