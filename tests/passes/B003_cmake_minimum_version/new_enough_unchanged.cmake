cmake_minimum_required(VERSION 3.24)
project(app LANGUAGES CUDA)
