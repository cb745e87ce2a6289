NVCC = hipcc
ARCH = --offload-arch=gfx90a
app: main.cu
	$(NVCC) $(ARCH) -o $@ $<
	$(NVCC) --offload-arch=gfx90a -o $@ $<
