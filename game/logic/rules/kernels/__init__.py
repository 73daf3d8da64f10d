"""Compiled kernels of the described games' searches, apart from the modules that use them
so that the disk cache of their machine code (filed by this folder's sources) outlives
changes to the rest of the rules package."""
