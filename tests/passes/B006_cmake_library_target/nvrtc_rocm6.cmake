# cu2hip-options: --rocm-version 6.2
target_link_libraries(app PRIVATE CUDA::nvrtc)
