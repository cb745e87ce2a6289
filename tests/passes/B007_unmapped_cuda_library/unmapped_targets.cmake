target_link_libraries(app PRIVATE CUDA::nvml CUDA::nvToolsExt nvidia-ml)
