__global__ void scale(float* x, int n);

typedef void (*Kernel)(float*, int);
Kernel kernels[] = {scale};
