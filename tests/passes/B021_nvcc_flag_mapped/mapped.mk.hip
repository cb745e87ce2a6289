NVCC = hipcc
FLAGS = -Xarch_device -ffast-math -Xarch_device -ffast-math -fgpu-rdc -fno-gpu-rdc -fgpu-rdc -c -x hip \
        -fopenmp -Wall -O2 -g -fPIC -Wl,-rpath,/opt \
        -Rpass-analysis=kernel-resource-usage -Rpass-analysis=kernel-resource-usage -save-temps -fgpu-default-stream=per-thread -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt \
 -ffp-contract=off -std=c++17 -std=c++14 -o app -c -O2
app: main.cu
	$(NVCC) $(FLAGS) $<
