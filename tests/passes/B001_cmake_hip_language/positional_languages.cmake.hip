project(app CXX HIP)
