#include <cstdio>
#include <vector>

// Plain C++ in a .cu file: nothing to translate, no header inserted.
// Names that merely start like CUDA ones are not APIs.
struct cudaLikeConfig { int cudaDevice; };
static int cub_count = 0;
int cuda_version() { return 12; }

int main() {
  std::vector<int> v(4, 1);
  cudaLikeConfig cfg{0};
  printf("cudaMalloc is not called here: %d\n", cfg.cudaDevice + cub_count + cuda_version());
  return static_cast<int>(v.size());
}
