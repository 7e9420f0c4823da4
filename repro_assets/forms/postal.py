"""A US postal address split into the parts a form asks for in boxes of their own.

``2716 Juniper Court, Boulder, CO 80304`` -> street ``2716 Juniper Court``, city ``Boulder``,
state ``CO``, ZIP ``80304``. Only an address that reads exactly as street, city, two-letter
state and ZIP is split; anything else gives None (the form's boxes are then left for review,
never filled with a guess).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_US_ADDRESS = re.compile(
    r"^(?P<street>\d[^,]*(?:,\s*[^,]*\d[^,]*)*?),\s*(?P<city>[A-Za-z][A-Za-z .'\-]*?),?\s+"
    r"(?P<state>[A-Z]{2})\.?,?\s+(?P<zip>\d{5}(?:-\d{4})?)$")


@dataclass(frozen=True)
class PostalAddress:
    """The parts of one address."""

    street: str
    city: str
    state: str
    zip: str

    def text(self, part: str | None) -> str:
        """The text of ``part``: ``None`` the street, else a ``+``-joined run of city,
        state and zip written as on an envelope ("Boulder, CO 80304")."""
        if part is None:
            return self.street
        values = {"city": self.city, "state": self.state, "zip": self.zip}
        names = part.split("+")
        out = values[names[0]]
        for before, name in zip(names, names[1:], strict=False):
            out += (", " if before == "city" else " ") + values[name]
        return out


def split_postal(address: str) -> PostalAddress | None:
    """The parts of a US address printed ``street, city, ST 12345``; None otherwise."""
    match = _US_ADDRESS.match(" ".join(address.split()))
    if not match:
        return None
    return PostalAddress(match["street"].strip(), match["city"].strip(), match["state"],
                         match["zip"])
