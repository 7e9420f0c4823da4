"""The sub-commands of ``repro-assets`` (one module each, see :mod:`repro_assets.cli`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def defer(parser: argparse.ArgumentParser,
          add: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add arguments with ``add(parser)`` only when ``parser``'s sub-command is chosen (when
    the parser can wait: :class:`repro_assets.cli.CommandParser`), else now.

    For arguments whose definition imports heavy modules (evaluators, numeric libraries), so
    that building the ``repro-assets`` parser stays cheap for every other command.
    """
    later = getattr(parser, "defer", None)
    if later is None:
        add(parser)
    else:
        later(add)
