find_package(CUDAToolkit REQUIRED)
find_package(hiprand REQUIRED)
target_link_libraries(app PRIVATE CUDA::curand)
