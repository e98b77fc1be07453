"""The dice service: dice sets as devices with their own log (see README.md)."""
