"""Whose value is it? Party words in labels, headings, letterheads and AcroForm field names.

Forms and the documents that fill them name several people and organizations, each with a
name, a phone and an address: the patient or injured employee (the *subject*, the one person
the form is about), an emergency contact, the insurance policyholder, doctors, the employer,
the clinic. Only the subject's values fill the v1 fields; a value whose label, line, section or
letterhead belongs to another party is not the subject's.

The vocabulary is about roles, never about any particular form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

SUBJECT = "subject"
#: The insurance policyholder (subscriber, insured, guarantor): may or may not be the subject.
POLICYHOLDER = "policyholder"

#: Role words per party. Multi-word entries are matched as phrases; every word also matches
#: its possessive or plural form (``Employee's``, ``Employees``, ``Doctors``).
PARTY_WORDS: dict[str, tuple[str, ...]] = {
    SUBJECT: ("patient", "employee", "injured worker", "claimant", "applicant", "member",
              "client", "enrollee", "beneficiary", "participant", "resident", "student",
              "child", "baby", "infant", "newborn", "taxpayer", "immigrant", "payee"),
    "emergency_contact": ("emergency", "next of kin", "contact person", "nearest relative",
                          "relative", "person to notify", "in case of"),
    "family": ("spouse", "parent", "guardian", "mother", "father", "husband", "wife",
               "sibling", "partner"),
    POLICYHOLDER: ("policyholder", "policy holder", "subscriber", "insured", "guarantor",
                     "responsible party", "cardholder", "card holder", "account holder"),
    "doctor": ("doctor", "physician", "dr.", "provider", "pcp", "clinician", "surgeon",
               "therapist", "dentist", "practitioner", "nurse", "prescriber", "referring",
               "referral", "treating", "designated", "certifying", "chiropractor", "ordering",
               "pathologist", "radiologist", "consultant", "lab director",
               "specialist", "examiner", "evaluator", "referred by", "ref. by", "ref. dr"),
    # who files or backs a petition for the person it is about: not that person
    "sponsor": ("petitioner", "sponsor", "co-sponsor"),
    "employer": ("employer", "supervisor", "place of employment", "manager"),
    "representative": ("attorney", "lawyer", "representative", "agent", "witness",
                       "interpreter", "translator", "preparer", "adjuster", "case manager",
                       "notary", "designee"),
    "organization": ("clinic", "hospital", "practice", "office", "facility", "pharmacy",
                     "laboratory", "center", "centre", "carrier", "insurer", "company",
                     "network", "plan", "agency", "department", "services", "service",
                     "billing", "location", "school", "associates", "group", "partners",
                     "institute", "llc", "inc.", "pllc", "corporation", "health system",
                     "medical center", "customer", "requester"),
}

ORGANIZATION = "organization"

#: Parties that never own an insurance member id of the subject (the policyholder's and the
#: plan's ids are the subject's coverage id; a doctor's or employer's id is not).
NOT_MEMBER_ID_OWNERS = frozenset({"emergency_contact", "family", "doctor", "employer",
                                  "representative", "sponsor"})

_POST_OFFICE = re.compile(r"\bpost\s+$", re.IGNORECASE)
_SUFFIX = r"(?:'s|’s|s'|s’|s|es)?"


def _phrase_re(phrase: str) -> str:
    words = [re.escape(w.rstrip(".")) + (r"\." if w.endswith(".") else _SUFFIX)
             for w in phrase.split()]
    return r"\b" + r"\s+".join(words) + (r"" if phrase.endswith(".") else r"\b")


_PARTY_RE: list[tuple[str, re.Pattern[str]]] = [
    (party, re.compile("|".join(_phrase_re(p) for p in phrases), re.IGNORECASE))
    for party, phrases in PARTY_WORDS.items()
]


@dataclass(frozen=True)
class PartyMention:
    """A party word found in a text."""

    party: str
    start: int
    end: int
    word: str


def mentions(text: str, parties: Iterable[str] | None = None) -> list[PartyMention]:
    """Every party word in ``text``, in text order (longest match first on overlaps)."""
    wanted = set(parties) if parties is not None else None
    found: list[PartyMention] = []
    for party, pattern in _PARTY_RE:
        if wanted is not None and party not in wanted:
            continue
        for match in pattern.finditer(text):
            if party == ORGANIZATION and _POST_OFFICE.search(text[:match.start()]):
                continue  # "Town or post office": a place, no organisation
            found.append(PartyMention(party, match.start(), match.end(), match.group(0)))
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    kept: list[PartyMention] = []
    for mention in found:
        if kept and mention.start < kept[-1].end:
            continue
        kept.append(mention)
    return kept


#: An aside in brackets: "Representative (payee)", "Tenant (the applicant)".
_ASIDE = re.compile(r"\(\s*(?:the\s+)?([^()]{2,40}?)\s*\)")


def aside_names_subject(text: str) -> bool:
    """True when an aside in brackets is the subject's role alone ("Representative (payee):"): it
    says which role the labelled person holds in the matter, whatever the label's own word."""
    for aside in _ASIDE.finditer(text):
        inner = aside.group(1)
        found = mentions(inner)
        if len(found) == 1 and found[0].party == SUBJECT and found[0].start == 0 \
                and found[0].end == len(inner):
            return True
    return False


def party_of(text: str, *, ignore: Iterable[str] = ()) -> str | None:
    """The party a label or field name is about, or None when it names no party.

    Another party wins over the subject ("Patient emergency contact phone" is the contact's);
    among other parties the last one mentioned wins ("Employer's insurance carrier"). An
    aside naming the subject's role alone wins over the rest ("Representative (payee)").
    """
    skip = set(ignore)
    if SUBJECT not in skip and aside_names_subject(text):
        return SUBJECT
    found = [m for m in mentions(strip_parentheticals(text)) if m.party not in skip]
    others = [m for m in found if m.party != SUBJECT]
    if others:
        return others[-1].party
    return SUBJECT if found else None


def nearest_party(text: str, *, ignore: Iterable[str] = ()) -> str | None:
    """The party of the last party word in ``text`` (the one nearest to what follows it)."""
    skip = set(ignore)
    found = [m for m in mentions(text) if m.party not in skip]
    return found[-1].party if found else None


def strip_parentheticals(text: str) -> str:
    """Drop ``(...)`` hints such as ``Name (if different from patient)``."""
    return re.sub(r"\([^)]*\)", " ", text)


def is_subject(party: str | None) -> bool:
    """True for the subject and for a value that names no party (the form's one person)."""
    return party in (None, SUBJECT)


def subject_word(texts: Iterable[str]) -> str | None:
    """The most frequent subject word in ``texts`` ("employee", "patient" ...), if any."""
    counts: dict[str, int] = {}
    for text in texts:
        for mention in mentions(strip_parentheticals(text), [SUBJECT]):
            word = re.sub(r"('s|’s|s'|s’|s)$", "", mention.word.lower())
            word = re.sub(r"\s+", " ", word)
            counts[word] = counts.get(word, 0) + 1
    return max(counts, key=lambda w: (counts[w], len(w))) if counts else None
