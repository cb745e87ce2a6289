NVCC = nvcc
ARCH = -arch=sm_80 -code=sm_80 -arch sm_90
app: main.cu
	$(NVCC) $(ARCH) -o $@ $<
	$(NVCC) --gpu-architecture=compute_90 -gencode=arch=compute_90,code=[sm_90,compute_90] -o $@ $<
