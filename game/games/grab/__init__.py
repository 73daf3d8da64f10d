"""MasterGrab: the registry entry and the window side."""
