"""Table sessions (sesiones de mesa): rounds, bets, results and settlement for roulette tables."""
