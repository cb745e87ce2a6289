cmake_minimum_required(VERSION 3.10...3.26)
enable_language(CUDA)
