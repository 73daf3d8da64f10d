"""Board games described as text: the description language, its compiler, the rulebook,
notation, agents and the catalogue of shipped descriptions (``games/*.txt``)."""
