NVCC = nvcc
app: main.cu
	$(NVCC) --frobnicate -Q -o $@ $<
