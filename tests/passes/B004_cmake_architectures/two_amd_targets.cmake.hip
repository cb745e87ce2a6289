# cu2hip-options: --offload-arch gfx942,gfx90a
set(CMAKE_HIP_ARCHITECTURES gfx942;gfx90a)
