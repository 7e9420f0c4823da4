"""The envelope of a message (quote markers, chat stamps, mail header fields) is unwrapped
before segmentation, never what the message says (#24)."""

from __future__ import annotations

from repro_assets.factory.reading.envelope import unwrap_message


def test_quote_markers_go_and_a_change_of_depth_ends_the_paragraph() -> None:
    text = "Agreed.\n> J7: M4 2h\n>> J7: M4 3h"
    assert unwrap_message(text).split("\n") == ["Agreed.", "", "J7: M4 2h", "", "J7: M4 3h"]


def test_chat_stamps_and_senders_go() -> None:
    # each message ends as a sentence: the next message never runs on into it
    assert unwrap_message("[06:58] Nils: J7 on M4 2h") == "J7 on M4 2h."
    assert unwrap_message("[3/12, 6:58 pm] Nils Berg: J7 on M4 2h") == "J7 on M4 2h."
    assert unwrap_message("3/12/2026, 06:58 - Nils: J7 on M4 2h") == "J7 on M4 2h."
    assert unwrap_message("[06:58] Nils: J7 on M4 2h!") == "J7 on M4 2h!"


def test_a_line_that_only_starts_with_a_clock_keeps_it() -> None:
    assert unwrap_message("14:00 J7 must be out") == "14:00 J7 must be out"


def test_mail_header_fields_go_and_a_subject_with_content_stays() -> None:
    text = "From: Nils\nTo: floor\nSent: Monday 06:58\nSubject: RE: J7 rush\nJ7: M4 2h"
    assert unwrap_message(text).split("\n") == ["", "", "", "", "J7: M4 2h"]
    assert unwrap_message("Subject: Fwd: J7 due 14:00") == "J7 due 14:00"


def test_emphasis_and_emoji_selectors_go() -> None:
    assert unwrap_message("*J7*: M4 2h \u27a1\ufe0f M5 1h") == "J7: M4 2h \u27a1 M5 1h"
    assert unwrap_message("M_SAW 2h, 5*60 s") == "M_SAW 2h, 5*60 s"


def test_the_line_that_attributes_a_quote_goes() -> None:
    text = "Fine.\nOn Fri, Dec 4, 2026 at 9:40 AM Ines <ines@mill.example> wrote:\n> J7: M4 2h"
    assert unwrap_message(text).split("\n") == ["Fine.", "", "J7: M4 2h"]
