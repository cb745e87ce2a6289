// soundness: must-refuse
// why: two members of a struct may hold the same or overlapping buffers: b.out may be b.in + 1
// no-edit: F001
// expect: F002 "not a plain name"
__global__ void produce(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void consume(const float* y, float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
}

struct Buffers { float* in; float* mid; float* out; };

void run(Buffers b, int n)
{
    produce<<<(n + 255) / 256, 256>>>(b.in, b.mid, n);
    consume<<<(n + 255) / 256, 256>>>(b.mid, b.out, n);
}
