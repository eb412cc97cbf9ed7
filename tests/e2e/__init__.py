"""End-to-end tests: the real bot against a fake Discord."""
