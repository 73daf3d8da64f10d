"""MasterGrab: conquest on a borderless (torus) pixel map of countries, against robots."""
