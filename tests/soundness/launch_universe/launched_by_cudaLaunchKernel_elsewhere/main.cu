__global__ void scale(float* x, int n);

int main()
{
    float* x = nullptr;
    int n = 1024;
    void* args[] = {&x, &n};
    int threads = 0;
    cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, 0);
    cudaLaunchKernel((void*)scale, dim3(1), dim3(threads), args, 0, 0);
    return 0;
}
