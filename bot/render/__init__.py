"""Shared Pillow rendering helpers (fonts, PNG encoding, drawing primitives)."""
