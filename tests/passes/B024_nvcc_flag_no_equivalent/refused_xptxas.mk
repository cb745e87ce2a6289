app: main.cu
	nvcc -Xptxas -O3 -o $@ $<
