cmake_minimum_required(VERSION 3.21...3.26)
enable_language(HIP)
