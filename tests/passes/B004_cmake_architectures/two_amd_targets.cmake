# cu2hip-options: --offload-arch gfx942,gfx90a
set(CMAKE_CUDA_ARCHITECTURES all-major)
