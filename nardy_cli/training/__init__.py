"""Training the neural evaluator by TD(lambda) self-play."""
