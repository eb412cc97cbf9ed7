"""Benchmarks (not tests): ``python -m bench``. Figures are measured on the machine at hand."""
