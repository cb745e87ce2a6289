app: main.cu
	nvcc --ptx -o $@ $<
