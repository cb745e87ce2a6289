project(app CXX CUDA)
