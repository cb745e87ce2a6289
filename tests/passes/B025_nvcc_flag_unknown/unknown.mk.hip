NVCC = hipcc
app: main.cu
	$(NVCC) --frobnicate -Q -o $@ $<
