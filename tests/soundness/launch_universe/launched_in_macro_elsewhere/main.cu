__global__ void scale(float* x, int n);
#define LAUNCH(k, x, n, t) k<<<((n) + (t) - 1) / (t), (t)>>>(x, n)

int main()
{
    float* x = nullptr;
    LAUNCH(scale, x, 4096, 1024);
    return 0;
}
