"""The probe's categories, one module each, and what they share (:mod:`probing.base`); run
them with ``tools/probe.py``."""
