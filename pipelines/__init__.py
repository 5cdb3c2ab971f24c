"""tablewatch: surveillance and game-protection analytics for casino card tables."""

__version__ = "0.1.0"
