app: main.cu
	hipcc -dlto -o $@ $<
