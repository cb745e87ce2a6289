// Surface object over a cudaArray created with cudaArraySurfaceLoadStore:
// one kernel writes a pattern, a second kernel reads it back, updates it in place
// and also copies it into linear memory. Both copies are checked exactly.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static const int W = 40;   // deliberately not a multiple of the block size
static const int H = 24;

__device__ __forceinline__ float pattern(int x, int y) { return static_cast<float>(x * 3 + y * 7); }

__global__ void write_pattern(cudaSurfaceObject_t surf, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        // surface x coordinates are in bytes
        surf2Dwrite(pattern(x, y), surf, x * static_cast<int>(sizeof(float)), y);
    }
}

__global__ void update_and_copy(cudaSurfaceObject_t surf, float* linear, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float v;
    surf2Dread(&v, surf, x * static_cast<int>(sizeof(float)), y);
    linear[y * w + x] = v;
    surf2Dwrite(2.0f * v + 1.0f, surf, x * static_cast<int>(sizeof(float)), y);
}

int main()
{
    cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaMallocArray(&array, &desc, W, H, cudaArraySurfaceLoadStore));

    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t surf = 0;
    CUDA_CHECK(cudaCreateSurfaceObject(&surf, &res));

    float* d_linear = nullptr;
    CUDA_CHECK(cudaMalloc(&d_linear, W * H * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_linear, 0, W * H * sizeof(float)));

    dim3 block(16, 16);
    dim3 grid((W + 15) / 16, (H + 15) / 16);
    write_pattern<<<grid, block>>>(surf, W, H);
    CUDA_CHECK(cudaGetLastError());
    update_and_copy<<<grid, block>>>(surf, d_linear, W, H);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> from_array(W * H), from_linear(W * H);
    CUDA_CHECK(cudaMemcpy2DFromArray(from_array.data(), W * sizeof(float), array, 0, 0,
                                     W * sizeof(float), H, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(from_linear.data(), d_linear, W * H * sizeof(float),
                          cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int y = 0; y < H; ++y) {
        for (int x = 0; x < W; ++x) {
            float p = static_cast<float>(x * 3 + y * 7);
            float a = from_array[y * W + x];
            float l = from_linear[y * W + x];
            if (l != p || a != 2.0f * p + 1.0f) {
                if (bad < 8)
                    fprintf(stderr, "(%d,%d): linear %f want %f, array %f want %f\n", x, y, l, p,
                            a, 2.0f * p + 1.0f);
                ++bad;
            }
        }
    }

    CUDA_CHECK(cudaDestroySurfaceObject(surf));
    CUDA_CHECK(cudaFreeArray(array));
    CUDA_CHECK(cudaFree(d_linear));

    if (bad != 0) {
        printf("FAIL: %d wrong values\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
