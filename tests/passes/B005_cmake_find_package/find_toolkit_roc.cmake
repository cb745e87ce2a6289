# cu2hip-options: --roc
find_package(CUDAToolkit REQUIRED)
target_link_libraries(app PRIVATE CUDA::cublas CUDA::curand CUDA::cusparse CUDA::cusolver)
