print("broadcast-monitor: under construction")
