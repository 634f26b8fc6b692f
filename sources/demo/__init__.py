"""The offline demo: a small fictional shop website served on loopback, and its sources."""
