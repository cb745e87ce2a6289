app: main.cu
	nvcc --fatbin -o $@ $<
