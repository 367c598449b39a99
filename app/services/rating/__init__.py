"""What a finished match counts for: statistics, ratings and spectators' guesses."""
