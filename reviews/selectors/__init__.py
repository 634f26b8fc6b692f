"""Reads of the reviews app: degraded-mode impact and incidents, the review queue."""
