"""The wheel service: roulette wheels as devices with their own log (see README.md)."""
