"""Test-suite wide settings: every run tests the same examples.

Hypothesis runs derandomized by default (its examples come from a hash of each test, not from
the clock), with no example database (a clean clone behaves like any other checkout), no
deadline and no too-slow health check (both depend on how loaded the machine is). Set
``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples instead; a failure then
prints the ``@reproduce_failure`` blob to replay it.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "teahouse",
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "explore",
    derandomize=False,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "teahouse"))
