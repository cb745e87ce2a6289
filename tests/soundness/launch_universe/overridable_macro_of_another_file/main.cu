#ifndef TPB
#define TPB 128
#endif
__global__ void scale(float* x, int n);

int main()
{
    float* x = nullptr;
    int n = 4096;
    scale<<<(n + TPB - 1) / TPB, TPB>>>(x, n);
    return 0;
}
