app: main.cu
	nvcc -cubin -o $@ $<
