"""A floor simulator: dealers and players at N roulette tables, playing rounds continuously."""
