app: main.cu
	nvcc -arch=$(SM) -o $@ $<
