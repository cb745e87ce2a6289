app: main.cu
	hipcc --nvlink-options=-v -o $@ $<
