find_package(CUDAToolkit 11.0 REQUIRED)
target_link_libraries(app PRIVATE CUDA::cublas CUDA::curand CUDA::cufft CUDA::cusparse CUDA::cudart)
