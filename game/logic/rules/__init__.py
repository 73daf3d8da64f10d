"""Board games described as text: the description language, its compiler, the rules engine,
notation, agents and the catalogue of shipped descriptions (``games/*.txt``)."""
