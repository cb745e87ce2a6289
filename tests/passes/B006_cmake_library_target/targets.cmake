target_link_libraries(app PRIVATE CUDA::cudart_static CUDA::cuda_driver CUDA::cublasLt CUDA::nvrtc
                      CUDA::cusolver_static)
