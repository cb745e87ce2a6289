// Pitched 2D memory (cudaMallocPitch, cudaMemset2D, cudaMemcpy2D) and 3D
// memory (cudaMalloc3D, cudaMemcpy3D with cudaMemcpy3DParms).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

__global__ void scale_2d(const float* in, size_t in_pitch, float* out,
                         size_t out_pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    const float* src = (const float*)((const char*)in + y * in_pitch);
    float* dst = (float*)((char*)out + y * out_pitch);
    dst[x] = src[x] * 2.0f + 1.0f;
  }
}

__global__ void update_3d(cudaPitchedPtr p, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  char* slice = (char*)p.ptr + (size_t)z * p.pitch * ny;
  int* row = (int*)(slice + (size_t)y * p.pitch);
  row[x] = row[x] * 3 - z;
}

static int test_2d() {
  const int width = 300, height = 200;
  const size_t row_bytes = width * sizeof(float);
  std::vector<float> h_in(width * height), h_out(width * height, -1.0f);
  for (int i = 0; i < width * height; ++i) h_in[i] = static_cast<float>(i);

  float *d_in = nullptr, *d_out = nullptr;
  size_t in_pitch = 0, out_pitch = 0;
  CHECK(cudaMallocPitch((void**)&d_in, &in_pitch, row_bytes, height));
  CHECK(cudaMallocPitch(reinterpret_cast<void**>(&d_out), &out_pitch, row_bytes, height));
  if (in_pitch < row_bytes || out_pitch < row_bytes) return 1;
  CHECK(cudaMemset2D(d_out, out_pitch, 0, row_bytes, height));
  CHECK(cudaMemcpy2D(d_in, in_pitch, h_in.data(), row_bytes, row_bytes, height,
                     cudaMemcpyHostToDevice));

  dim3 block(16, 16);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  scale_2d<<<grid, block>>>(d_in, in_pitch, d_out, out_pitch, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(h_out.data(), row_bytes, d_out, out_pitch, row_bytes,
                     height, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < width * height; ++i)  // integers below 2^24: exact
    if (h_out[i] != h_in[i] * 2.0f + 1.0f) {
      if (bad < 5) fprintf(stderr, "2d[%d] = %g\n", i, h_out[i]);
      ++bad;
    }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return bad;
}

static int test_3d() {
  const int nx = 40, ny = 30, nz = 20;
  std::vector<int> h(nx * ny * nz), back(nx * ny * nz, 0);
  for (int i = 0; i < nx * ny * nz; ++i) h[i] = (i * 31) % 977;

  cudaExtent extent = make_cudaExtent(nx * sizeof(int), ny, nz);
  cudaPitchedPtr d_vol;
  CHECK(cudaMalloc3D(&d_vol, extent));

  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(h.data(), nx * sizeof(int), nx, ny);
  up.dstPtr = d_vol;
  up.extent = extent;
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up));

  dim3 block(8, 8, 4);
  dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4);
  update_3d<<<grid, block>>>(d_vol, nx, ny, nz);
  CHECK(cudaGetLastError());

  cudaMemcpy3DParms down = {};
  down.srcPtr = d_vol;
  down.dstPtr = make_cudaPitchedPtr(back.data(), nx * sizeof(int), nx, ny);
  down.extent = extent;
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down));

  int bad = 0;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        int i = (z * ny + y) * nx + x;
        if (back[i] != h[i] * 3 - z) {
          if (bad < 5) fprintf(stderr, "3d(%d,%d,%d) = %d\n", x, y, z, back[i]);
          ++bad;
        }
      }
  CHECK(cudaFree(d_vol.ptr));
  return bad;
}

int main() {
  int bad2 = test_2d();
  int bad3 = test_3d();
  if (bad2 || bad3) {
    printf("FAIL: %d 2D errors, %d 3D errors\n", bad2, bad3);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
