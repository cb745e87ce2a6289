// soundness: must-refuse
// why: a stream built from argv gives the block size
// no-edit: L001
// no-edit: L007
// expect: L002 "read into by `>>`"
#include <sstream>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


int main(int argc, char** argv)
{
    int threads = 128, n = 1 << 20;
    std::istringstream in(argc > 1 ? argv[1] : "128");
    in >> threads;
    float* x = nullptr;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    return 0;
}
