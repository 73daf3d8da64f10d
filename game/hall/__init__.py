"""What every game's window shares: the menu, the match controls, keeping a game across restarts."""
