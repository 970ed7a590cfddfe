print("benchmarks: under construction")
