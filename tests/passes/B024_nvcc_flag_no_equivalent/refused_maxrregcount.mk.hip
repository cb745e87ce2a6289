app: main.cu
	hipcc -maxrregcount=64 -o $@ $<
