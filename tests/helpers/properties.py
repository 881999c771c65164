"""What the property tests (hypothesis) share: their caches kept in the system's temporary folder,
never in the repository; their settings (no deadline, as a loaded 2-CPU CI machine must not make a
slow example fail, no example database, the failing example's blob printed); and `replay`, which
replays a run by the seed `INSPECTOR_FUZZ_SEED` names."""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, seed, settings
from hypothesis.configuration import set_hypothesis_home_dir

# Hypothesis keeps caches (constants, unicode data) in a `.hypothesis` folder of the working folder
set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "inspector-hypothesis"))
SEED = os.environ.get("INSPECTOR_FUZZ_SEED")
replay = seed(int(SEED)) if SEED else (lambda test: test)


def examples(variable: str, default: int) -> settings:
    """The settings of a property test trying as many examples as `variable` says (else `default`)."""
    return settings(
        max_examples=int(os.environ.get(variable, str(default))),
        deadline=None,
        database=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
