CXX = g++
NVCC_VERSION := $(shell nvcc --version)
app: main.cpp
	$(CXX) -O2 -o $@ $<
