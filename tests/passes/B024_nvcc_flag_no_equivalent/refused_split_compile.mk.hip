app: main.cu
	hipcc -split-compile 0 -o $@ $<
