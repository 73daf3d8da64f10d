"""The compiled back end of described games (issue 29's spike): numba code generated from
the move programs' typed tree; not used by the window or the CLI yet."""
