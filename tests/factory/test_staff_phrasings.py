"""The offline reader on a fourth, independent set of phrasings: how staff write to a planner.

Written in one sitting before the reader was changed for them (#24): invented plants, machines,
products and sentences in forms the earlier sets do not cover: chat messages with timestamps and
emoji, forwarded e-mail threads whose content sits in the quoted part, tables pasted from a PDF
(ragged columns, a header wrapped over two lines, a page break with the header repeated, a
total row), routes told as "first ..., then ..., finally ...", "after M5 it goes to M7",
durations as "0.5h", "1:30 h" or "45 mins each step", dues as "by COB", "before lunch (12:00)",
a deadlines block, quantities with cycle times in seconds, machine names with spaces ("Press 2")
mapped to ids, job ids with a foreign prefix ("JOB-001"), notes in square brackets, headings in
capitals, numbered lists of jobs, one line per operation ("J1 op10 M1 30min"), key-value lines
and sections per machine instead of per job.

Every case has one definite expectation: the configuration a planner reads (machine ids; per
job the route, the whole hours and the due hour) or the coded failure the contract demands when
the text is genuinely ambiguous. Fractional hours are rounded up with a recorded repair
(``ok_rounded``). Conventions of the earlier sets are kept: a due on another day than the plan
day, an undefined "end of day" and a prime mark as a unit ("20'") are coded failures.

Graded exactly like ``repro-assets eval factory`` (:func:`repro_assets.factory.grading.grade`).
``python -m tests.factory.test_staff_phrasings`` prints the totals and every case not correct.
"""

from __future__ import annotations

from collections import Counter

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import Grade, LabelledCase, Verdict, grade
from repro_assets.factory.models import ExtractionError
from tests.factory.labelled import labelled_case

FAILS = "INVALID_STRUCTURE"
ROUNDED = "ok_rounded"

_case = labelled_case

CASES: list[LabelledCase] = [
    # ------------------------------------------------------------------ chat messages
    _case(
        "chat_timestamps_are_not_dues",
        "[07:02] Dana: machines today M11 (saw) and M12 (drill)\n"
        "[07:03] Dana: J21 M11 2h then M12 1h\n"
        "[07:05] Dana: J22 only M12, 3h\n"
        "[07:06] Dana: J21 has to be out by 14:00\n",
        ("M11", "M12"), "ok",
        {"J21": (["M11", "M12"], [2, 1], 14), "J22": (["M12"], [3], None)},
    ),
    _case(
        "chat_emoji_arrows",
        "Hi boss, quick one \U0001f64f\n"
        "J31: M21 2h \u27a1\ufe0f M22 1h\n"
        "J32: M22 2h\n"
        "machines r M21 & M22\n"
        "thx \U0001f44d\n",
        ("M21", "M22"), "ok",
        {"J31": (["M21", "M22"], [2, 1], None), "J32": (["M22"], [2], None)},
    ),
    _case(
        "chat_correction_replaces_the_line",
        "M31 and M32 running today.\n"
        "J41: M31 1h, M32 2h\n"
        "sorry typo, J41 is M31 1h, M32 3h\n",
        ("M31", "M32"), "ok",
        {"J41": (["M31", "M32"], [1, 3], None)},
    ),
    _case(
        "chat_sender_prefix_per_line",
        "Marta: ok plan for the night\n"
        "Marta: we have M5 (router) and M6 (sander)\n"
        "Marta: J7 router 2h, then sander 1h\n"
        "Marta: J8 sander only, 2h\n",
        ("M5", "M6"), "ok",
        {"J7": (["M5", "M6"], [2, 1], None), "J8": (["M6"], [2], None)},
    ),
    _case(
        "chat_whichever_is_free",
        "Machines M5 (router), M6 (sander), M7 (sander 2).\n"
        "J8: M5 1h then M6 or M7 whichever's free, 1h\n",
        ("M5", "M6", "M7"), FAILS,
    ),
    # ------------------------------------------------------------------ e-mail threads
    _case(
        "forward_quote_only_asks",
        "Fwd: plan for Tuesday\n"
        "\n"
        "Hi Ana, see below. Machines: M41 (mixer), M42 (filler).\n"
        "J51: M41 2h, M42 1h.\n"
        "J52: M42 2h.\n"
        "\n"
        "> On Mon, Ana wrote:\n"
        "> can you send me the routes for J51 and J52?\n"
        "> thanks\n",
        ("M41", "M42"), "ok",
        {"J51": (["M41", "M42"], [2, 1], None), "J52": (["M42"], [2], None)},
    ),
    _case(
        "reply_agrees_content_in_quote",
        "Agreed, go with this.\n"
        "\n"
        "> From: Ben\n"
        "> Machines: M41, M42\n"
        "> J51: M41 2h, M42 1h\n"
        "> J52: M42 1h\n",
        ("M41", "M42"), "ok",
        {"J51": (["M41", "M42"], [2, 1], None), "J52": (["M42"], [1], None)},
    ),
    _case(
        "email_job_in_subject_line",
        "From: planning\n"
        "To: floor team\n"
        "Subject: Re: J51 rush\n"
        "\n"
        "M41 = mixer, M42 = filler\n"
        "J51 M41 1h > M42 1h, due 16:00\n"
        "J52 M42 2h\n",
        ("M41", "M42"), "ok",
        {"J51": (["M41", "M42"], [1, 1], 16), "J52": (["M42"], [2], None)},
    ),
    _case(
        "email_nested_quotes_same_plan",
        "Confirmed.\n"
        "\n"
        "> Is this right?\n"
        ">> Machines: M41, M42\n"
        ">> J51: M41 1h, M42 2h\n",
        ("M41", "M42"), "ok",
        {"J51": (["M41", "M42"], [1, 2], None)},
    ),
    # ------------------------------------------------------------------ pasted PDF tables
    _case(
        "pdf_table_ragged_columns",
        "Job   Machine    Time\n"
        "J61  M51   2 h\n"
        "J61     M52  1 h\n"
        "J62   M52     3 h\n",
        ("M51", "M52"), "ok",
        {"J61": (["M51", "M52"], [2, 1], None), "J62": (["M52"], [3], None)},
    ),
    _case(
        "pdf_table_header_wrapped",
        "Work order  Work     Run\n"
        "            centre   hours\n"
        "J61         M51      2\n"
        "J61         M52      1\n"
        "J62         M52      3\n",
        ("M51", "M52"), "ok",
        {"J61": (["M51", "M52"], [2, 1], None), "J62": (["M52"], [3], None)},
    ),
    _case(
        "pdf_table_page_break_header_repeated",
        "Job  Machine  Hours\n"
        "J61  M51      2\n"
        "J61  M52      1\n"
        "Page 1 of 2\n"
        "Job  Machine  Hours\n"
        "J62  M52      3\n"
        "J63  M51      1\n"
        "Page 2 of 2\n",
        ("M51", "M52"), "ok",
        {
            "J61": (["M51", "M52"], [2, 1], None),
            "J62": (["M52"], [3], None),
            "J63": (["M51"], [1], None),
        },
    ),
    _case(
        "tab_table_total_row",
        "Job\tMachine\tHours\n"
        "J61\tM51\t2\n"
        "J61\tM52\t1\n"
        "J62\tM52\t3\n"
        "Total\t\t6\n",
        ("M51", "M52"), "ok",
        {"J61": (["M51", "M52"], [2, 1], None), "J62": (["M52"], [3], None)},
    ),
    _case(
        "csv_with_comment_lines",
        "# exported from the planning sheet\n"
        "job,machine,hours\n"
        "J61,M51,2\n"
        "J61,M52,1\n"
        "J62,M52,3\n"
        "# end of export\n",
        ("M51", "M52"), "ok",
        {"J61": (["M51", "M52"], [2, 1], None), "J62": (["M52"], [3], None)},
    ),
    _case(
        "markdown_alignment_row_minutes_header",
        "| Job | Machine | Duration [min] |\n"
        "|:----|:-------:|---------------:|\n"
        "| J61 | M51 | 120 |\n"
        "| J61 | M52 | 60 |\n"
        "| J62 | M52 | 180 |\n",
        ("M51", "M52"), "ok",
        {"J61": (["M51", "M52"], [2, 1], None), "J62": (["M52"], [3], None)},
    ),
    # ------------------------------------------------------------------ told as a sequence
    _case(
        "first_then_finally",
        "Machines: M1 (cut), M2 (bend), M3 (paint).\n"
        "J71: first M1 for 2 hours, then M2 for 1 hour, finally M3 for 2 hours.\n"
        "J72: first M2 (1h), finally M3 (1h).\n",
        ("M1", "M2", "M3"), "ok",
        {"J71": (["M1", "M2", "M3"], [2, 1, 2], None), "J72": (["M2", "M3"], [1, 1], None)},
    ),
    _case(
        "after_m_it_goes_to",
        "Machines M5, M6, M7.\n"
        "J81 starts on M5 (2h). After M5 it goes to M7 (1h).\n"
        "J82 is M6 only, 4h.\n",
        ("M5", "M6", "M7"), "ok",
        {"J81": (["M5", "M7"], [2, 1], None), "J82": (["M6"], [4], None)},
    ),
    _case(
        "from_via_to_each",
        "Machines: M1 (blank), M2 (stamp), M3 (wash).\n"
        "J1 goes from M1 via M2 to M3, 1h each.\n",
        ("M1", "M2", "M3"), "ok",
        {"J1": (["M1", "M2", "M3"], [1, 1, 1], None)},
    ),
    _case(
        "prime_minutes_after_a_name",
        "Machines: M1 (laser), M2 (deburr).\nJ1: M1 (laser) 60', M2 (deburr) 20'\n",
        ("M1", "M2"), FAILS,
    ),
    # ------------------------------------------------------------------ durations
    _case(
        "mins_each_step",
        "Machines: M1, M2, M3.\nJ91 goes M1, M2, M3, 45 mins each step.\n",
        ("M1", "M2", "M3"), ROUNDED,
        {"J91": (["M1", "M2", "M3"], [1, 1, 1], None)},
    ),
    _case(
        "point_five_hours",
        "Machines: M1 (polish), M2 (inspect).\nJ92: M1 0.5h, M2 2h\n",
        ("M1", "M2"), ROUNDED,
        {"J92": (["M1", "M2"], [1, 2], None)},
    ),
    _case(
        "colon_hours_with_unit",
        "Machines: M1 (polish), M2 (inspect).\nJ92: M1 1:30 h, M2 2:00 h\n",
        ("M1", "M2"), ROUNDED,
        {"J92": (["M1", "M2"], [2, 2], None)},
    ),
    _case(
        "hrs_and_mins_words",
        "Machines: M1 (polish), M2 (inspect).\nJ93: M1 2 hrs 30 mins, M2 1 hr\n",
        ("M1", "M2"), ROUNDED,
        {"J93": (["M1", "M2"], [3, 1], None)},
    ),
    _case(
        "slash_hours_after_shared_route",
        "Machines: M1, M2, M3.\nRoute for all jobs: M1 > M2 > M3 (1h/1h/2h).\nJobs: J1, J2.\n",
        ("M1", "M2", "M3"), "ok",
        {"J1": (["M1", "M2", "M3"], [1, 1, 2], None), "J2": (["M1", "M2", "M3"], [1, 1, 2], None)},
    ),
    # ------------------------------------------------------------------ due times
    _case(
        "due_by_cob_undefined",
        "Machines: M1, M2.\nJ1: M1 1h, M2 2h, by COB please.\n",
        ("M1", "M2"), FAILS,
    ),
    _case(
        "due_cob_defined",
        "COB is 17:00 here.\nMachines: M1, M2.\nJ1: M1 1h, M2 2h, by COB.\nJ2: M2 1h.\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [1, 2], 17), "J2": (["M2"], [1], None)},
    ),
    _case(
        "due_before_lunch_with_clock",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h - before lunch (12:00)\nJ2: M2 2h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [1, 1], 12), "J2": (["M2"], [2], None)},
    ),
    _case(
        "due_tomorrow_morning_clock",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h, for the truck tomorrow 08:00\n",
        ("M1", "M2"), FAILS,
    ),
    _case(
        "deadlines_block_after_routes",
        "Machines: M1 (cut), M2 (fold).\n"
        "Routes\n"
        "J1: M1 2h, M2 1h\n"
        "J2: M2 2h\n"
        "Deadlines\n"
        "J1 - 14:00\n"
        "J2 - 16:00\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], 14), "J2": (["M2"], [2], 16)},
    ),
    _case(
        "due_label_on_its_own_line_under_job",
        "Machines: M1 (cut), M2 (fold).\n"
        "J1\n"
        "  M1 2h\n"
        "  M2 1h\n"
        "  Due: 15:00\n"
        "J2\n"
        "  M2 3h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], 15), "J2": (["M2"], [3], None)},
    ),
    _case(
        "rush_note_is_not_a_due",
        "Machines: M1 (cut), M2 (fold).\nJ1: M1 2h, M2 1h (rush!)\nJ2: M2 1h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [1], None)},
    ),
    # ------------------------------------------------------------------ quantities x cycle
    _case(
        "pipe_table_qty_and_cycle_seconds",
        "Job | Qty | Machine | Cycle (s)\n"
        "J1 | 120 | M1 | 60\n"
        "J1 | 120 | M2 | 30\n"
        "J2 | 360 | M2 | 20\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "prose_pieces_seconds_per_piece",
        "Machines: M3 (press), M4 (trim).\nJ5: 600 pcs, M3 at 12 s/pc, then M4 at 6 s/pc\n",
        ("M3", "M4"), "ok",
        {"J5": (["M3", "M4"], [2, 1], None)},
    ),
    _case(
        "times_sign_seconds",
        "Machines: M3 (press), M4 (trim).\nJ6: M4, 90 pcs \u00d7 40 sec\n",
        ("M3", "M4"), "ok",
        {"J6": (["M4"], [1], None)},
    ),
    # ------------------------------------------------------------------ machine names
    _case(
        "names_with_numbers_mapped_to_ids",
        "Legend: M1 = Saw 1, M2 = Press 2\n"
        "J1: Saw 1 for 1h, then Press 2 for 2h\n"
        "J2: Press 2 for 3h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "table_station_names_with_legend",
        "M1 = Saw, M2 = Oven\n"
        "Job | Station | h\n"
        "J1 | Saw | 2\n"
        "J1 | Oven | 1\n"
        "J2 | Oven | 3\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "machine_name_in_parentheses_in_route",
        "Machines: M1, M2.\nJ1: M1 (Press 2) 2h, M2 (Oven B) 1h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None)},
    ),
    # ------------------------------------------------------------------ ids
    _case(
        "job_ids_with_foreign_prefix",
        "Machines: M1, M2.\nJOB-001: M1 2h, M2 1h\nJOB-002: M2 1h\n",
        ("M1", "M2"), "NO_IDS_OR_COVERAGE_MISMATCH",
    ),
    _case(
        "job_ids_with_letter_suffix",
        "Machines: M1, M2.\nJ12A: M1 1h, M2 1h\nJ12B: M2 2h\n",
        ("M1", "M2"), "ok",
        {"J12A": (["M1", "M2"], [1, 1], None), "J12B": (["M2"], [2], None)},
    ),
    # ------------------------------------------------------------------ notes and headings
    _case(
        "square_bracket_notes",
        "Machines: M1 (weld), M2 (grind).\n"
        "J1: M1 2h [setup included], M2 1h [check with Tariq]\n"
        "J2: M2 2h [new fixture]\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "capital_headings",
        "MONDAY PLAN\n"
        "LINE A\n"
        "Machines M1 M2\n"
        "JOBS\n"
        "J1 M1 1h M2 1h\n"
        "J2 M2 2h\n"
        "NOTES\n"
        "Maintenance Window Friday\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [1, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "q4_heading_and_ask_note",
        "Q4 Plan - Hall B\n"
        "Machines: M1 (lathe), M2 (mill)\n"
        "J1 (ask Pete about stock): M1 2h, M2 1h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None)},
    ),
    # ------------------------------------------------------------------ lists
    _case(
        "numbered_list_of_jobs_dash",
        "Machines: M1 (saw), M2 (drill).\n"
        "1. J1 \u2013 M1 2h, M2 1h\n"
        "2. J2 \u2013 M2 3h\n"
        "3. J3 \u2013 M1 1h\n",
        ("M1", "M2"), "ok",
        {
            "J1": (["M1", "M2"], [2, 1], None),
            "J2": (["M2"], [3], None),
            "J3": (["M1"], [1], None),
        },
    ),
    _case(
        "numbered_list_paren",
        "Machines: M1 (saw), M2 (drill).\n"
        "1) J1: M1 2h, M2 1h\n"
        "2) J2: M2 3h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "both_share_a_route",
        "Machines: M1 (saw), M2 (drill).\nJ1 and J2 both: M1 1h, M2 2h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M1", "M2"], [1, 2], None)},
    ),
    # ------------------------------------------------------------------ one line per operation
    _case(
        "one_line_per_operation_op_numbers",
        "Machines: M1, M2.\n"
        "J1 op10 M1 30min\n"
        "J1 op20 M2 90min\n"
        "J2 op10 M2 60min\n",
        ("M1", "M2"), ROUNDED,
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M2"], [1], None)},
    ),
    _case(
        "slash_separated_operation_lines",
        "Machines: M1, M2.\n"
        "J1 / op 10 / M1 / 2h\n"
        "J1 / op 20 / M2 / 1h\n"
        "J2 / op 10 / M2 / 3h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "key_value_operation_lines",
        "J1\n"
        "  machine: M1, time: 2h\n"
        "  machine: M2, time: 1h\n"
        "J2\n"
        "  machine: M2, time: 3h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "inline_parenthesised_route_semicolons",
        "Machines: M1, M2.\nJ1 (M1: 2h; M2: 1h)\nJ2 (M2: 2h)\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [2], None)},
    ),
    # ------------------------------------------------------------------ sections per machine
    _case(
        "per_machine_sections_one_step_each",
        "M1 (saw) queue:\n"
        "- J1 2h\n"
        "- J2 1h\n"
        "M2 (mill) queue:\n"
        "- J3 3h\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1"], [2], None), "J2": (["M1"], [1], None), "J3": (["M2"], [3], None)},
    ),
    _case(
        "per_machine_sections_order_unstated",
        "M1 (saw):\n"
        "- J1 2h\n"
        "- J2 1h\n"
        "M2 (mill):\n"
        "- J1 1h\n",
        ("M1", "M2"), FAILS,
    ),
    # ------------------------------------------------------------------ refusals
    _case(
        "same_as_yesterday",
        "Machines: M1, M2.\nJ1: M1 2h, M2 1h\nJ2: same as yesterday\n",
        ("M1", "M2"), FAILS,
    ),
    _case(
        "reject_arrow_back",
        "Machines: M1 (weld), M2 (check).\nJ1: M1 2h, M2 1h (reject \u2192 back to M1)\n",
        ("M1", "M2"), FAILS,
    ),
    _case(
        "route_through_machine_missing_from_table",
        "| Machine | Name |\n"
        "|---|---|\n"
        "| M1 | saw |\n"
        "| M2 | drill |\n"
        "\n"
        "J1: M1 1h, M3 2h\n",
        ("M1", "M2"), FAILS,
    ),
    _case(
        "numbered_list_missing_route",
        "Machines: M1 (saw), M2 (drill).\n"
        "1. J1 - M1 2h, M2 1h\n"
        "2. J2 - tbc\n",
        ("M1", "M2"), FAILS,
    ),
    _case(
        "shift_b_note_with_routes",
        "Shift B handover\n"
        "M7 (oven) was down until 22:00, back up now. M8 (cooler) fine.\n"
        "J9: M7 2h, M8 1h\n"
        "J10: M8 2h, out by 06:00\n",
        ("M7", "M8"), "ok",
        {"J9": (["M7", "M8"], [2, 1], None), "J10": (["M8"], [2], 6)},
    ),
]


#: Written after the first measurement, from what reading the grammar showed: "via" after the
#: destination was read in the order written (a silent wrong before the fix).
FOUND_CASES: list[LabelledCase] = [
    _case(
        "via_after_the_destination",
        "Machines: M1, M2, M3.\nJ1 goes to M3, via M2, 1h each.\n",
        ("M1", "M2", "M3"), FAILS,
    ),
    _case(
        "via_between_origin_and_destination",
        "Machines: M1, M2, M3, M4.\nJ1 goes from M1 via M2 and M4 to M3, 2h each.\n",
        ("M1", "M2", "M3", "M4"), "ok",
        {"J1": (["M1", "M2", "M4", "M3"], [2, 2, 2, 2], None)},
    ),
    _case(
        "quantity_once_but_one_step_in_hours",
        "Machines: M3 (press), M4 (trim).\nJ5: 600 pcs, M3 at 12 s/pc, then M4 1h\n",
        ("M3", "M4"), FAILS,
    ),
    _case(
        "header_wrapped_with_an_unknown_column",
        "Job   Work     Run     Shift\n"
        "      centre   hours   note\n"
        "J61   M51      2       A\n"
        "J62   M52      1       B\n",
        ("M51", "M52"), FAILS,
    ),
    _case(
        "numbered_names_that_share_a_word",
        "Machines: M1 = Saw 1, M2 = Saw 2\nJ1: Saw 2 for 1h, then Saw 1 for 2h\nJ2: Saw for 3h\n",
        ("M1", "M2"), FAILS,
    ),
]

#: A second batch, written after the first round of fixes and measured before any change for
#: it (the measure of how far those fixes generalize).
SECOND_CASES: list[LabelledCase] = [
    _case(
        "teams_name_and_time_lines",
        "Ravi Kumar 08:14\n"
        "J3 on M2 for 2h then M4 1h\n"
        "Ravi Kumar 08:15\n"
        "J4 M4 3h\n",
        ("M2", "M4"), "ok",
        {"J3": (["M2", "M4"], [2, 1], None), "J4": (["M4"], [3], None)},
    ),
    _case(
        "outlook_wrote_line_then_quoted_plan",
        "Yes, please run it.\n"
        "\n"
        "On Tue 24 Nov 2026 at 09:12, Priya wrote:\n"
        "> M5 = grinder, M6 = hone\n"
        "> J8: M5 2h -> M6 2h\n"
        "> J9: M6 1h, due 15:00\n",
        ("M5", "M6"), "ok",
        {"J8": (["M5", "M6"], [2, 2], None), "J9": (["M6"], [1], 15)},
    ),
    _case(
        "quote_marker_without_space",
        "See the plan below.\n>Machines: M5, M6\n>J8: M5 2h, M6 1h\n",
        ("M5", "M6"), "ok",
        {"J8": (["M5", "M6"], [2, 1], None)},
    ),
    _case(
        "whatsapp_export_lines",
        "24/11/2026, 07:41 - Omar: J11 M8 1h then M9 2h\n"
        "24/11/2026, 07:42 - Omar: M8 is the lathe, M9 the mill\n",
        ("M8", "M9"), "ok",
        {"J11": (["M8", "M9"], [1, 2], None)},
    ),
    _case(
        "ragged_table_minutes_in_cells",
        "Order   Resource   Duration\n"
        "J12  M10  90 min\n"
        "J12   M11  30 min\n"
        "J13  M11   2 h\n",
        ("M10", "M11"), ROUNDED,
        {"J12": (["M10", "M11"], [2, 1], None), "J13": (["M11"], [2], None)},
    ),
    _case(
        "markdown_bold_total_row",
        "| Job | Machine | Hours |\n"
        "|---|---|---|\n"
        "| J1 | M1 | 2 |\n"
        "| J1 | M2 | 1 |\n"
        "| **Total** | | **3** |\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [2, 1], None)},
    ),
    _case(
        "begins_moves_on_ends",
        "Machines: M12, M13, M14.\n"
        "J14 begins at M12 (1h), moves on to M13 (2h) and ends at M14 (1h).\n",
        ("M12", "M13", "M14"), "ok",
        {"J14": (["M12", "M13", "M14"], [1, 2, 1], None)},
    ),
    _case(
        "decimal_and_fraction_hours",
        "Machines: M12, M13.\nJ15: M12 1.25 hrs, M13 75 minutes\n",
        ("M12", "M13"), ROUNDED,
        {"J15": (["M12", "M13"], [2, 2], None)},
    ),
    _case(
        "minutes_per_op",
        "Machines: M12, M13, M14.\nJ16 runs M12, M13 and M14, 45 min per op.\n",
        ("M12", "M13", "M14"), ROUNDED,
        {"J16": (["M12", "M13", "M14"], [1, 1, 1], None)},
    ),
    _case(
        "close_of_play_undefined",
        "Machines: M12, M13.\nJ16: M12 1h, M13 1h, by close of play.\n",
        ("M12", "M13"), FAILS,
    ),
    _case(
        "ready_for_collection_at",
        "Machines: M12, M13.\nJ16: M12 1h, M13 1h, ready for collection at 13:00.\n",
        ("M12", "M13"), "ok",
        {"J16": (["M12", "M13"], [1, 1], 13)},
    ),
    _case(
        "before_the_break_with_clock",
        "Machines: M12, M13.\nJ16: M12 1h, M13 1h - before the afternoon break (15:00)\n",
        ("M12", "M13"), "ok",
        {"J16": (["M12", "M13"], [1, 1], 15)},
    ),
    _case(
        "first_thing_tomorrow",
        "Machines: M12, M13.\nJ16: M12 1h, M13 1h, needed first thing tomorrow.\n",
        ("M12", "M13"), FAILS,
    ),
    _case(
        "due_heading_with_bullets",
        "Machines: M1, M2.\n"
        "J1: M1 1h, M2 1h\n"
        "J2: M2 2h\n"
        "\n"
        "Due:\n"
        "- J1 11:00\n"
        "- J2 15:00\n",
        ("M1", "M2"), "ok",
        {"J1": (["M1", "M2"], [1, 1], 11), "J2": (["M2"], [2], 15)},
    ),
    _case(
        "csv_quantity_cycle_seconds_unit_header",
        "job,qty,machine,cycle [s]\nJ17,90,M15,40\nJ17,90,M16,80\n",
        ("M15", "M16"), "ok",
        {"J17": (["M15", "M16"], [1, 2], None)},
    ),
    _case(
        "cell_names_with_numbers",
        "Cell 3 (M17), Cell 4 (M18)\nJ18: Cell 3 2h, Cell 4 1h\n",
        ("M17", "M18"), "ok",
        {"J18": (["M17", "M18"], [2, 1], None)},
    ),
    _case(
        "foreign_reference_beside_a_job_id",
        "Machines: M17, M18.\nJ19 (ref JOB-7): M17 2h, M18 1h\n",
        ("M17", "M18"), "ok",
        {"J19": (["M17", "M18"], [2, 1], None)},
    ),
    _case(
        "capital_heading_and_name_with_tonnage",
        "PRESS SHOP\nM19 = 200t press\nJ20 M19 2h\n",
        ("M19",), "ok",
        {"J20": (["M19"], [2], None)},
    ),
    _case(
        "numbered_with_dash_after_number",
        "Machines: M19, M20.\n1 - J21: M19 1h\n2 - J22: M20 2h\n",
        ("M19", "M20"), "ok",
        {"J21": (["M19"], [1], None), "J22": (["M20"], [2], None)},
    ),
    _case(
        "operation_word_lines",
        "Machines: M20, M21.\nJ23 Operation 10 M20 1h\nJ23 Operation 20 M21 2h\n",
        ("M20", "M21"), "ok",
        {"J23": (["M20", "M21"], [1, 2], None)},
    ),
    _case(
        "machine_sections_bare_name_tab_indent",
        "M20 laser:\n\tJ24 1h\nM21 bender:\n\tJ25 2h\n",
        ("M20", "M21"), "ok",
        {"J24": (["M20"], [1], None), "J25": (["M21"], [2], None)},
    ),
    _case(
        "machine_sections_job_twice",
        "M20 laser:\n\tJ24 1h\nM21 bender:\n\tJ24 2h\n",
        ("M20", "M21"), FAILS,
    ),
    _case(
        "revisit_with_each",
        "Machines: M20, M21.\nJ26: M20 \u2192 M21 \u2192 M20 (1h each)\n",
        ("M20", "M21"), "ok",
        {"J26": (["M20", "M21", "M20"], [1, 1, 1], None)},
    ),
    _case(
        "nok_back_to",
        "Machines: M20, M21.\nJ26: M20 1h, M21 1h, if NOK back to M21\n",
        ("M20", "M21"), FAILS,
    ),
    _case(
        "table_cell_alternative",
        "Job;Machine;Hours\nJ27;M22/M23;2\n",
        None, FAILS,
    ),
    _case(
        "key_value_lines_split",
        "J28\n  Station: M22\n  Hrs: 2\n  Station: M23\n  Hrs: 1\n",
        ("M22", "M23"), "ok",
        {"J28": (["M22", "M23"], [2, 1], None)},
    ),
]


#: Cases the reader still misses: each must fail with a code, never be read wrongly.
KNOWN_MISSES = frozenset({
    "chat_emoji_arrows",
    "chat_correction_replaces_the_line",
    "rush_note_is_not_a_due",
    "square_bracket_notes",
    "shift_b_note_with_routes",
})


def _grade(case: LabelledCase) -> Grade:
    try:
        outcome = OnboardingAgent().run_detailed(case.text)
    except ExtractionError as error:
        return grade(case, error)
    return grade(case, outcome)


@pytest.mark.parametrize("case", CASES + FOUND_CASES + SECOND_CASES,
                         ids=[case.name for case in CASES + FOUND_CASES + SECOND_CASES])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    result = _grade(case)
    if case.name in KNOWN_MISSES:
        assert result.verdict is Verdict.SAFE_FAIL, result  # a miss, never a wrong config
        return
    assert result.verdict is Verdict.CORRECT, result


def test_rounded_cases_record_the_rounding() -> None:
    for case in [c for c in CASES + SECOND_CASES
                 if c.expect == ROUNDED and c.name not in KNOWN_MISSES]:
        repairs = OnboardingAgent().run_detailed(case.text).repairs
        assert any("rounded up" in repair for repair in repairs), case.name


def test_the_set_is_large_and_its_names_distinct() -> None:
    assert len(CASES) >= 50
    every = CASES + FOUND_CASES + SECOND_CASES
    assert len({case.name for case in every}) == len(every)


def main() -> None:
    """Print per batch the totals (correct / safe fail / silent wrong) and the cases not
    correct."""
    for label, cases in (("first batch", CASES), ("found while reading", FOUND_CASES),
                         ("second batch", SECOND_CASES)):
        totals: Counter[str] = Counter()
        for case in cases:
            result = _grade(case)
            totals[result.verdict.value] += 1
            if result.verdict is not Verdict.CORRECT:
                print(f"{result.verdict.value:13} {case.name}: {result.got}: {result.detail}")
        print(label, dict(totals), f"of {len(cases)}")


if __name__ == "__main__":
    main()
