"""The built-in MasterGrab robots (spec 5.2, 5.3); see :mod:`game.logic.grab.robot` for the API."""
