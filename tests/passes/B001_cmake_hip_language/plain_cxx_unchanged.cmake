cmake_minimum_required(VERSION 3.10)
project(app LANGUAGES CXX)
add_executable(app main.cpp)
message(STATUS "no CUDA here")
