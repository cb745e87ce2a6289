app: main.cu
	nvcc --device-debug -o $@ $<
