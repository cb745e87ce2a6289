app: main.cu
	hipcc -arch=$(SM) -o $@ $<
