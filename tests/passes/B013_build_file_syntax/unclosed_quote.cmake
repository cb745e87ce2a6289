set(CMAKE_CUDA_FLAGS "-lineinfo)
