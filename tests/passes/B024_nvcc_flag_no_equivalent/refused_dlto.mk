app: main.cu
	nvcc -dlto -o $@ $<
