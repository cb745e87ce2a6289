// soundness: must-apply
// why: a macro's reinterpret_cast and static_cast to a pointer, and its static_cast to int, run no code of a class
// edit: L007 "256"
#include <cstdio>
#define BITS(p) (*reinterpret_cast<unsigned int *>(p))
#define AS_INT(p) (*static_cast<int *>(static_cast<void *>(p)))
#define WHOLE(x) static_cast<int>(x)

__global__ void k(float *data, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        BITS(&data[i]) ^= 0x80000000u;          // flips the sign
        out[i] = WHOLE(data[i]) + (AS_INT(&data[i]) < 0);
    }
}

int main()
{
    const int n = 1000;
    float *data;
    int *out;
    cudaMallocManaged(&data, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) data[i] = 0.5f + i;
    k<<<(n + 127) / 128, 128>>>(data, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = (int)(-(0.5f + i)) + 1;
        if (data[i] != -(0.5f + i) || out[i] != want) { printf("FAIL at %d: %f %d\n", i, data[i], out[i]); return 1; }
    }
    printf("OK\n");
    return 0;
}
