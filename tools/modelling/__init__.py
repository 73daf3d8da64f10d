"""The pieces of ``tools/make_models.py``: the geometry kernel and one module per family of
models (the river's characters and scenery, the tables of Reversi and Cluedo, the described
games' pieces). Every model is a function returning a :class:`modelling.geometry.Geo`."""
