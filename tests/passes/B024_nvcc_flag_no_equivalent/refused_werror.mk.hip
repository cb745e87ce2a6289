app: main.cu
	hipcc -Werror cross-execution-space-call -o $@ $<
