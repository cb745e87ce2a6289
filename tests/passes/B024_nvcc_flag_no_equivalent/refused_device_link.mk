app: main.cu
	nvcc --device-link -o $@ $<
