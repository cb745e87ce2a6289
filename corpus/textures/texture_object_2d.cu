// 2D texture object over a cudaArray, sampled with point filtering.
// Checks a horizontally flipped read and a clamped (out-of-range) read exactly.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

constexpr int kWidth = 64;
constexpr int kHeight = 48;
constexpr int kShift = 10;

// out_flip(x, y) = tex(W-1-x, y); out_clamp(x, y) = tex(x-kShift, y) with clamp addressing.
template <typename T>
__global__ void sample_kernel(cudaTextureObject_t tex, T* out_flip, T* out_clamp, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float v = static_cast<float>(y) + 0.5f;
    out_flip[y * w + x] = tex2D<T>(tex, static_cast<float>(w - 1 - x) + 0.5f, v);
    out_clamp[y * w + x] = tex2D<T>(tex, static_cast<float>(x - kShift) + 0.5f, v);
}

static cudaTextureObject_t make_texture(cudaArray_t array)
{
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;

    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;

    cudaTextureObject_t tex = 0;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
    return tex;
}

int main()
{
    const size_t count = static_cast<size_t>(kWidth) * kHeight;
    std::vector<float> h_in(count);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            h_in[y * kWidth + x] = static_cast<float>(y * 1000 + x);

    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array = nullptr;
    CHECK(cudaMallocArray(&array, &desc, kWidth, kHeight));
    const size_t pitch = kWidth * sizeof(float);
    CHECK(cudaMemcpy2DToArray(array, 0, 0, h_in.data(), pitch, pitch, kHeight,
                              cudaMemcpyHostToDevice));

    cudaTextureObject_t tex = make_texture(array);

    float* d_flip = nullptr;
    float* d_clamp = nullptr;
    CHECK(cudaMalloc(&d_flip, count * sizeof(float)));
    CHECK(cudaMalloc(&d_clamp, count * sizeof(float)));

    dim3 block(16, 8);
    dim3 grid((kWidth + block.x - 1) / block.x, (kHeight + block.y - 1) / block.y);
    sample_kernel<float><<<grid, block>>>(tex, d_flip, d_clamp, kWidth, kHeight);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<float> h_flip(count), h_clamp(count);
    CHECK(cudaMemcpy(h_flip.data(), d_flip, count * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_clamp.data(), d_clamp, count * sizeof(float), cudaMemcpyDeviceToHost));

    int errors = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            float want_flip = h_in[y * kWidth + (kWidth - 1 - x)];
            int cx = x - kShift < 0 ? 0 : x - kShift;
            float want_clamp = h_in[y * kWidth + cx];
            float got_flip = h_flip[y * kWidth + x];
            float got_clamp = h_clamp[y * kWidth + x];
            if (got_flip != want_flip || got_clamp != want_clamp) {
                if (errors < 8)
                    fprintf(stderr, "mismatch at (%d,%d): flip %f want %f, clamp %f want %f\n",
                            x, y, got_flip, want_flip, got_clamp, want_clamp);
                ++errors;
            }
        }
    }

    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(array));
    CHECK(cudaFree(d_flip));
    CHECK(cudaFree(d_clamp));

    if (errors) {
        printf("FAIL: %d mismatches\n", errors);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
