app: main.cu
	nvcc --nvlink-options=-v -o $@ $<
