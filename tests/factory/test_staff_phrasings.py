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

import pytest

from repro_assets.factory.grading import LabelledCase
from tests.factory.labelled import labelled_case
from tests.factory.phrasing_sets import (
    ROUNDED,
    check_case,
    check_rounding,
    print_totals,
)

FAILS = "INVALID_STRUCTURE"

_case = labelled_case

CASES: list[LabelledCase] = [
    # ------------------------------------------------------------------ chat messages
    _case(
        "chat_timestamps_are_not_dues",
        "[07:02] Dana: machines today M81 (saw) and M82 (drill)\n"
        "[07:03] Dana: J321 M81 2h then M82 1h\n"
        "[07:05] Dana: J322 only M82, 3h\n"
        "[07:06] Dana: J321 must ship by 14:00\n",
        ("M81", "M82"), "ok",
        {"J321": (["M81", "M82"], [2, 1], 14), "J322": (["M82"], [3], None)},
    ),
    _case(
        "chat_emoji_arrows",
        "Hi boss, quick one \U0001f64f\n"
        "J331: M91 2h \u27a1\ufe0f M92 1h\n"
        "J332: M92 2h\n"
        "machines r M91 & M92\n"
        "thx \U0001f44d\n",
        ("M91", "M92"), "ok",
        {"J331": (["M91", "M92"], [2, 1], None), "J332": (["M92"], [2], None)},
    ),
    _case(
        "chat_correction_replaces_the_line",
        "M101 and M102 running today.\n"
        "J341: M101 1h, M102 2h\n"
        "sorry typo, J341 is M101 1h, M102 3h\n",
        ("M101", "M102"), "ok",
        {"J341": (["M101", "M102"], [1, 3], None)},
    ),
    _case(
        "chat_sender_prefix_per_line",
        "Marta: ok plan for the night\n"
        "Marta: we have M75 (router) and M76 (sander)\n"
        "Marta: J307 router 2h, then sander 1h\n"
        "Marta: J308 sander only, 2h\n",
        ("M75", "M76"), "ok",
        {"J307": (["M75", "M76"], [2, 1], None), "J308": (["M76"], [2], None)},
    ),
    _case(
        "chat_whichever_is_free",
        "Machines M75 (router), M76 (sander), M77 (sander 2).\n"
        "J308: M75 1h then M76 or M77 whichever's free, 1h\n",
        ("M75", "M76", "M77"), FAILS,
    ),
    # ------------------------------------------------------------------ e-mail threads
    _case(
        "forward_quote_only_asks",
        "Fwd: plan for Tuesday\n"
        "\n"
        "Hi Ana, see below. Machines: M111 (mixer), M112 (filler).\n"
        "J351: M111 2h, M112 1h.\n"
        "J352: M112 2h.\n"
        "\n"
        "> On Mon, Ana wrote:\n"
        "> can you send me the routes for J351 and J352?\n"
        "> thanks\n",
        ("M111", "M112"), "ok",
        {"J351": (["M111", "M112"], [2, 1], None), "J352": (["M112"], [2], None)},
    ),
    _case(
        "reply_agrees_content_in_quote",
        "Agreed, go with this.\n"
        "\n"
        "> From: Ben\n"
        "> Machines: M111, M112\n"
        "> J351: M111 2h, M112 1h\n"
        "> J352: M112 1h\n",
        ("M111", "M112"), "ok",
        {"J351": (["M111", "M112"], [2, 1], None), "J352": (["M112"], [1], None)},
    ),
    _case(
        "email_job_in_subject_line",
        "From: planning\n"
        "To: floor team\n"
        "Subject: Re: J351 rush\n"
        "\n"
        "M111 = mixer, M112 = filler\n"
        "J351 M111 1h > M112 1h, due by 16:00\n"
        "J352 M112 2h\n",
        ("M111", "M112"), "ok",
        {"J351": (["M111", "M112"], [1, 1], 16), "J352": (["M112"], [2], None)},
    ),
    _case(
        "email_nested_quotes_same_plan",
        "Confirmed.\n"
        "\n"
        "> Is this right?\n"
        ">> Machines: M111, M112\n"
        ">> J351: M111 1h, M112 2h\n",
        ("M111", "M112"), "ok",
        {"J351": (["M111", "M112"], [1, 2], None)},
    ),
    # ------------------------------------------------------------------ pasted PDF tables
    _case(
        "pdf_table_ragged_columns",
        "Job   Machine    Time\n"
        "J361  M121   2 h\n"
        "J361     M122  1 h\n"
        "J362   M122     3 h\n",
        ("M121", "M122"), "ok",
        {"J361": (["M121", "M122"], [2, 1], None), "J362": (["M122"], [3], None)},
    ),
    _case(
        "pdf_table_header_wrapped",
        "Work order  Work     Run\n"
        "            centre   hours\n"
        "J361         M121      2\n"
        "J361         M122      1\n"
        "J362         M122      3\n",
        ("M121", "M122"), "ok",
        {"J361": (["M121", "M122"], [2, 1], None), "J362": (["M122"], [3], None)},
    ),
    _case(
        "pdf_table_page_break_header_repeated",
        "Job  Machine  Hours\n"
        "J361  M121      2\n"
        "J361  M122      1\n"
        "Page 1 of 2\n"
        "Job  Machine  Hours\n"
        "J362  M122      3\n"
        "J363  M121      1\n"
        "Page 2 of 2\n",
        ("M121", "M122"), "ok",
        {
            "J361": (["M121", "M122"], [2, 1], None),
            "J362": (["M122"], [3], None),
            "J363": (["M121"], [1], None),
        },
    ),
    _case(
        "tab_table_total_row",
        "Job\tMachine\tHours\n"
        "J361\tM121\t2\n"
        "J361\tM122\t1\n"
        "J362\tM122\t3\n"
        "Total\t\t6\n",
        ("M121", "M122"), "ok",
        {"J361": (["M121", "M122"], [2, 1], None), "J362": (["M122"], [3], None)},
    ),
    _case(
        "csv_with_comment_lines",
        "# export of the line sheet\n"
        "job,machine,hours\n"
        "J361,M121,2\n"
        "J361,M122,1\n"
        "J362,M122,3\n"
        "# end of export\n",
        ("M121", "M122"), "ok",
        {"J361": (["M121", "M122"], [2, 1], None), "J362": (["M122"], [3], None)},
    ),
    _case(
        "markdown_alignment_row_minutes_header",
        "| Job | Machine | Duration [min] |\n"
        "|:----|:-------:|---------------:|\n"
        "| J361 | M121 | 120 |\n"
        "| J361 | M122 | 60 |\n"
        "| J362 | M122 | 180 |\n",
        ("M121", "M122"), "ok",
        {"J361": (["M121", "M122"], [2, 1], None), "J362": (["M122"], [3], None)},
    ),
    # ------------------------------------------------------------------ told as a sequence
    _case(
        "first_then_finally",
        "Machines: M71 (cut), M72 (bend), M73 (paint).\n"
        "J371: first M71 for 2 h, then M72 for 1 h, finally M73 for 2 h.\n"
        "J372: first M72 (1h), finally M73 (1h).\n",
        ("M71", "M72", "M73"), "ok",
        {"J371": (["M71", "M72", "M73"], [2, 1, 2], None), "J372": (["M72", "M73"], [1, 1], None)},
    ),
    _case(
        "after_m_it_goes_to",
        "Machines M75, M76, M77.\n"
        "J381 starts on M75 (2h). After M75 it goes to M77 (1h).\n"
        "J382 is M76 only, 4h.\n",
        ("M75", "M76", "M77"), "ok",
        {"J381": (["M75", "M77"], [2, 1], None), "J382": (["M76"], [4], None)},
    ),
    _case(
        "from_via_to_each",
        "Machines: M71 (blank), M72 (stamp), M73 (wash).\n"
        "J301 goes from M71 via M72 to M73, 1h each.\n",
        ("M71", "M72", "M73"), "ok",
        {"J301": (["M71", "M72", "M73"], [1, 1, 1], None)},
    ),
    _case(
        "prime_minutes_after_a_name",
        "Machines: M71 (laser), M72 (deburr).\nJ301: M71 (laser) 60', M72 (deburr) 20'\n",
        ("M71", "M72"), FAILS,
    ),
    # ------------------------------------------------------------------ durations
    _case(
        "mins_each_step",
        "Machines: M71, M72, M73.\nJ391 goes M71, M72, M73, 45 mins each step.\n",
        ("M71", "M72", "M73"), ROUNDED,
        {"J391": (["M71", "M72", "M73"], [1, 1, 1], None)},
    ),
    _case(
        "point_five_hours",
        "Machines: M71 (polish), M72 (inspect).\nJ392: M71 0.5h, M72 2h\n",
        ("M71", "M72"), ROUNDED,
        {"J392": (["M71", "M72"], [1, 2], None)},
    ),
    _case(
        "colon_hours_with_unit",
        "Machines: M71 (polish), M72 (inspect).\nJ392: M71 1:30 h, M72 2:00 h\n",
        ("M71", "M72"), ROUNDED,
        {"J392": (["M71", "M72"], [2, 2], None)},
    ),
    _case(
        "hrs_and_mins_words",
        "Machines: M71 (polish), M72 (inspect).\nJ393: M71 2 hrs 30 mins, M72 1 hr\n",
        ("M71", "M72"), ROUNDED,
        {"J393": (["M71", "M72"], [3, 1], None)},
    ),
    _case(
        "slash_hours_after_shared_route",
        "Machines: M71, M72, M73.\n"
        "Route for all jobs: M71 > M72 > M73 (1h/1h/2h).\n"
        "Jobs: J301, J302.\n",
        ("M71", "M72", "M73"), "ok",
        {
            "J301": (["M71", "M72", "M73"], [1, 1, 2], None),
            "J302": (["M71", "M72", "M73"], [1, 1, 2], None),
        },
    ),
    # ------------------------------------------------------------------ due times
    _case(
        "due_by_cob_undefined",
        "Machines: M71, M72.\nJ301: M71 1h, M72 2h, by COB please.\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "due_cob_defined",
        "COB is 17:00 here.\nMachines: M71, M72.\nJ301: M71 1h, M72 2h, by COB.\nJ302: M72 1h.\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [1, 2], 17), "J302": (["M72"], [1], None)},
    ),
    _case(
        "due_before_lunch_with_clock",
        "Machines: M71, M72.\nJ301: M71 1h, M72 1h - before lunch (12:00)\nJ302: M72 2h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [1, 1], 12), "J302": (["M72"], [2], None)},
    ),
    _case(
        "due_tomorrow_morning_clock",
        "Machines: M71, M72.\nJ301: M71 1h, M72 1h, for the truck tomorrow 08:00\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "deadlines_block_after_routes",
        "Machines: M71 (cut), M72 (fold).\n"
        "Routes\n"
        "J301: M71 2h, M72 1h\n"
        "J302: M72 2h\n"
        "Deadlines\n"
        "J301 - 14:00\n"
        "J302 - 16:00\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], 14), "J302": (["M72"], [2], 16)},
    ),
    _case(
        "due_label_on_its_own_line_under_job",
        "Machines: M71 (cut), M72 (fold).\n"
        "J301\n"
        "  M71 2h\n"
        "  M72 1h\n"
        "  Due: 15:00\n"
        "J302\n"
        "  M72 3h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], 15), "J302": (["M72"], [3], None)},
    ),
    _case(
        "rush_note_is_not_a_due",
        "Machines: M71 (cut), M72 (fold).\nJ301: M71 2h, M72 1h (rush!)\nJ302: M72 1h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [1], None)},
    ),
    # ------------------------------------------------------------------ quantities x cycle
    _case(
        "pipe_table_qty_and_cycle_seconds",
        "Job | Qty | Machine | Cycle (s)\n"
        "J301 | 120 | M71 | 60\n"
        "J301 | 120 | M72 | 30\n"
        "J302 | 360 | M72 | 20\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [2], None)},
    ),
    _case(
        "prose_pieces_seconds_per_piece",
        "Machines: M73 (press), M74 (trim).\nJ305: 600 pcs, M73 at 12 s/pc, then M74 at 6 s/pc\n",
        ("M73", "M74"), "ok",
        {"J305": (["M73", "M74"], [2, 1], None)},
    ),
    _case(
        "times_sign_seconds",
        "Machines: M73 (press), M74 (trim).\nJ306: M74, 90 pcs \u00d7 40 sec\n",
        ("M73", "M74"), "ok",
        {"J306": (["M74"], [1], None)},
    ),
    # ------------------------------------------------------------------ machine names
    _case(
        "names_with_numbers_mapped_to_ids",
        "Legend: M71 = Saw 1, M72 = Press 2\n"
        "J301: Saw 1 for 1h, then Press 2 for 2h\n"
        "J302: Press 2 for 3h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [1, 2], None), "J302": (["M72"], [3], None)},
    ),
    _case(
        "table_station_names_with_legend",
        "M71 = Saw, M72 = Oven\n"
        "Job | Station | h\n"
        "J301 | Saw | 2\n"
        "J301 | Oven | 1\n"
        "J302 | Oven | 3\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [3], None)},
    ),
    _case(
        "machine_name_in_parentheses_in_route",
        "Machines: M71, M72.\nJ301: M71 (Press 2) 2h, M72 (Oven B) 1h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None)},
    ),
    # ------------------------------------------------------------------ ids
    _case(
        "job_ids_with_foreign_prefix",
        "Machines: M71, M72.\nJOB-001: M71 2h, M72 1h\nJOB-002: M72 1h\n",
        ("M71", "M72"), "NO_IDS_OR_COVERAGE_MISMATCH",
    ),
    _case(
        "job_ids_with_letter_suffix",
        "Machines: M71, M72.\nJ312A: M71 1h, M72 1h\nJ312B: M72 2h\n",
        ("M71", "M72"), "ok",
        {"J312A": (["M71", "M72"], [1, 1], None), "J312B": (["M72"], [2], None)},
    ),
    # ------------------------------------------------------------------ notes and headings
    _case(
        "square_bracket_notes",
        "Machines: M71 (weld), M72 (grind).\n"
        "J301: M71 2h [setup included], M72 1h [check with Tariq]\n"
        "J302: M72 2h [new fixture]\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [2], None)},
    ),
    _case(
        "capital_headings",
        "MONDAY PLAN\n"
        "LINE A\n"
        "Machines M71 M72\n"
        "JOBS\n"
        "J301 M71 1h M72 1h\n"
        "J302 M72 2h\n"
        "NOTES\n"
        "Maintenance Window Friday\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [1, 1], None), "J302": (["M72"], [2], None)},
    ),
    _case(
        "q4_heading_and_ask_note",
        "Q4 Plan - Hall B\n"
        "Machines: M71 (lathe), M72 (mill)\n"
        "J301 (ask Pete about stock): M71 2h, M72 1h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None)},
    ),
    # ------------------------------------------------------------------ lists
    _case(
        "numbered_list_of_jobs_dash",
        "Machines: M71 (saw), M72 (drill).\n"
        "1. J301 \u2013 M71 2h, M72 1h\n"
        "2. J302 \u2013 M72 3h\n"
        "3. J303 \u2013 M71 1h\n",
        ("M71", "M72"), "ok",
        {
            "J301": (["M71", "M72"], [2, 1], None),
            "J302": (["M72"], [3], None),
            "J303": (["M71"], [1], None),
        },
    ),
    _case(
        "numbered_list_paren",
        "Machines: M71 (saw), M72 (drill).\n"
        "1) J301: M71 2h, M72 1h\n"
        "2) J302: M72 3h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [3], None)},
    ),
    _case(
        "both_share_a_route",
        "Machines: M71 (saw), M72 (drill).\nJ301 and J302 both: M71 1h, M72 2h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [1, 2], None), "J302": (["M71", "M72"], [1, 2], None)},
    ),
    # ------------------------------------------------------------------ one line per operation
    _case(
        "one_line_per_operation_op_numbers",
        "Machines: M71, M72.\n"
        "J301 op10 M71 30min\n"
        "J301 op20 M72 90min\n"
        "J302 op10 M72 60min\n",
        ("M71", "M72"), ROUNDED,
        {"J301": (["M71", "M72"], [1, 2], None), "J302": (["M72"], [1], None)},
    ),
    _case(
        "slash_separated_operation_lines",
        "Machines: M71, M72.\n"
        "J301 / op 10 / M71 / 2h\n"
        "J301 / op 20 / M72 / 1h\n"
        "J302 / op 10 / M72 / 3h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [3], None)},
    ),
    _case(
        "key_value_operation_lines",
        "J301\n"
        "  machine: M71, time: 2h\n"
        "  machine: M72, time: 1h\n"
        "J302\n"
        "  machine: M72, time: 3h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [3], None)},
    ),
    _case(
        "inline_parenthesised_route_semicolons",
        "Machines: M71, M72.\nJ301 (M71: 2h; M72: 1h)\nJ302 (M72: 2h)\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None), "J302": (["M72"], [2], None)},
    ),
    # ------------------------------------------------------------------ sections per machine
    _case(
        "per_machine_sections_one_step_each",
        "M71 (saw) queue:\n"
        "- J301 2h\n"
        "- J302 1h\n"
        "M72 (mill) queue:\n"
        "- J303 3h\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71"], [2], None), "J302": (["M71"], [1], None), "J303": (["M72"], [3], None)},
    ),
    _case(
        "per_machine_sections_order_unstated",
        "M71 (saw):\n"
        "- J301 2h\n"
        "- J302 1h\n"
        "M72 (mill):\n"
        "- J301 1h\n",
        ("M71", "M72"), FAILS,
    ),
    # ------------------------------------------------------------------ refusals
    _case(
        "same_as_yesterday",
        "Machines: M71, M72.\nJ301: M71 2h, M72 1h\nJ302: same as yesterday\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "reject_arrow_back",
        "Machines: M71 (weld), M72 (check).\nJ301: M71 2h, M72 1h (reject \u2192 back to M71)\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "route_through_machine_missing_from_table",
        "| Machine | Name |\n"
        "|---|---|\n"
        "| M71 | saw |\n"
        "| M72 | drill |\n"
        "\n"
        "J301: M71 1h, M73 2h\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "numbered_list_missing_route",
        "Machines: M71 (saw), M72 (drill).\n"
        "1. J301 - M71 2h, M72 1h\n"
        "2. J302 - tbc\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "shift_b_note_with_routes",
        "Shift B handover\n"
        "M77 (oven) was down until 22:00, back up now. M78 (cooler) fine.\n"
        "J309: M77 2h, M78 1h\n"
        "J310: M78 2h, out by 06:00\n",
        ("M77", "M78"), "ok",
        {"J309": (["M77", "M78"], [2, 1], None), "J310": (["M78"], [2], 6)},
    ),
]


#: Written after the first measurement, from what reading the grammar showed: "via" after the
#: destination was read in the order written (a silent wrong before the fix); the limits of
#: the new rules (a duration under a Due heading, a question).
FOUND_CASES: list[LabelledCase] = [
    _case(
        "via_after_the_destination",
        "Machines: M71, M72, M73.\nJ301 goes to M73, via M72, 1h each.\n",
        ("M71", "M72", "M73"), FAILS,
    ),
    _case(
        "via_between_origin_and_destination",
        "Machines: M71, M72, M73, M74.\nJ301 goes from M71 via M72 and M74 to M73, 2h each.\n",
        ("M71", "M72", "M73", "M74"), "ok",
        {"J301": (["M71", "M72", "M74", "M73"], [2, 2, 2, 2], None)},
    ),
    _case(
        "due_heading_over_a_duration",
        "Machines: M71, M72.\nJ301: M71 1h, M72 1h\nDue:\n- J301 2h\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "a_question_is_no_statement",
        "Machines: M71, M72.\nJ301: M71 1h, M72 1h. J301 ships by 2pm?\n",
        ("M71", "M72"), FAILS,
    ),
    _case(
        "quantity_once_but_one_step_in_hours",
        "Machines: M73 (press), M74 (trim).\nJ305: 600 pcs, M73 at 12 s/pc, then M74 1h\n",
        ("M73", "M74"), FAILS,
    ),
    _case(
        "header_wrapped_with_an_unknown_column",
        "Job   Work     Run     Shift\n"
        "      centre   hours   note\n"
        "J361   M121      2       A\n"
        "J362   M122      1       B\n",
        ("M121", "M122"), FAILS,
    ),
    _case(
        "numbered_names_that_share_a_word",
        "Machines: M71 = Saw 1, M72 = Saw 2\n"
        "J301: Saw 2 for 1h, then Saw 1 for 2h\n"
        "J302: Saw for 3h\n",
        ("M71", "M72"), FAILS,
    ),
]

#: A second batch, written after the first round of fixes and measured before any change for
#: it (the measure of how far those fixes generalize).
SECOND_CASES: list[LabelledCase] = [
    _case(
        "teams_name_and_time_lines",
        "Ravi Kumar 08:14\n"
        "J303 on M72 for 2h then M74 1h\n"
        "Ravi Kumar 08:15\n"
        "J304 M74 3h\n",
        ("M72", "M74"), "ok",
        {"J303": (["M72", "M74"], [2, 1], None), "J304": (["M74"], [3], None)},
    ),
    _case(
        "outlook_wrote_line_then_quoted_plan",
        "Yes, please run it.\n"
        "\n"
        "On Tue 24 Nov 2026 at 09:12, Priya wrote:\n"
        "> M75 = grinder, M76 = hone\n"
        "> J308: M75 2h -> M76 2h\n"
        "> J309: M76 1h, due at 3pm\n",
        ("M75", "M76"), "ok",
        {"J308": (["M75", "M76"], [2, 2], None), "J309": (["M76"], [1], 15)},
    ),
    _case(
        "quote_marker_without_space",
        "See the plan below.\n>Machines: M75, M76\n>J308: M75 2h, M76 1h\n",
        ("M75", "M76"), "ok",
        {"J308": (["M75", "M76"], [2, 1], None)},
    ),
    _case(
        "whatsapp_export_lines",
        "24/11/2026, 07:41 - Omar: J311 M78 1h then M79 2h\n"
        "24/11/2026, 07:42 - Omar: M78 is the lathe, M79 the mill\n",
        ("M78", "M79"), "ok",
        {"J311": (["M78", "M79"], [1, 2], None)},
    ),
    _case(
        "ragged_table_minutes_in_cells",
        "Order   Resource   Duration\n"
        "J312  M80  90 min\n"
        "J312   M81  30 min\n"
        "J313  M81   2 h\n",
        ("M80", "M81"), ROUNDED,
        {"J312": (["M80", "M81"], [2, 1], None), "J313": (["M81"], [2], None)},
    ),
    _case(
        "markdown_bold_total_row",
        "| Job | Machine | Hours |\n"
        "|---|---|---|\n"
        "| J301 | M71 | 2 |\n"
        "| J301 | M72 | 1 |\n"
        "| **Total** | | **3** |\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [2, 1], None)},
    ),
    _case(
        "begins_moves_on_ends",
        "Machines: M82, M83, M84.\n"
        "J314 begins at M82 (1h), moves on to M83 (2h) and ends at M84 (1h).\n",
        ("M82", "M83", "M84"), "ok",
        {"J314": (["M82", "M83", "M84"], [1, 2, 1], None)},
    ),
    _case(
        "decimal_and_fraction_hours",
        "Machines: M82, M83.\nJ315: M82 1.25 hrs, M83 75 minutes\n",
        ("M82", "M83"), ROUNDED,
        {"J315": (["M82", "M83"], [2, 2], None)},
    ),
    _case(
        "minutes_per_op",
        "Machines: M82, M83, M84.\nJ316 runs M82, M83 and M84, 45 min per op.\n",
        ("M82", "M83", "M84"), ROUNDED,
        {"J316": (["M82", "M83", "M84"], [1, 1, 1], None)},
    ),
    _case(
        "close_of_play_undefined",
        "Machines: M82, M83.\nJ316: M82 1h, M83 1h, by close of play.\n",
        ("M82", "M83"), FAILS,
    ),
    _case(
        "ready_for_collection_at",
        "Machines: M82, M83.\nJ316: M82 1h, M83 1h, ready for collection at 13:00.\n",
        ("M82", "M83"), "ok",
        {"J316": (["M82", "M83"], [1, 1], 13)},
    ),
    _case(
        "before_the_break_with_clock",
        "Machines: M82, M83.\nJ316: M82 1h, M83 1h - before the afternoon break (15:00)\n",
        ("M82", "M83"), "ok",
        {"J316": (["M82", "M83"], [1, 1], 15)},
    ),
    _case(
        "first_thing_tomorrow",
        "Machines: M82, M83.\nJ316: M82 1h, M83 1h, needed first thing tomorrow.\n",
        ("M82", "M83"), FAILS,
    ),
    _case(
        "due_heading_with_bullets",
        "Machines: M71, M72.\n"
        "J301: M71 1h, M72 1h\n"
        "J302: M72 2h\n"
        "\n"
        "Due:\n"
        "- J301 11:00\n"
        "- J302 15:00\n",
        ("M71", "M72"), "ok",
        {"J301": (["M71", "M72"], [1, 1], 11), "J302": (["M72"], [2], 15)},
    ),
    _case(
        "csv_quantity_cycle_seconds_unit_header",
        "job,qty,machine,cycle [s]\nJ317,90,M85,40\nJ317,90,M86,80\n",
        ("M85", "M86"), "ok",
        {"J317": (["M85", "M86"], [1, 2], None)},
    ),
    _case(
        "cell_names_with_numbers",
        "Cell 3 (M87), Cell 4 (M88)\nJ318: Cell 3 2h, Cell 4 1h\n",
        ("M87", "M88"), "ok",
        {"J318": (["M87", "M88"], [2, 1], None)},
    ),
    _case(
        "foreign_reference_beside_a_job_id",
        "Machines: M87, M88.\nJ319 (ref JOB-7): M87 2h, M88 1h\n",
        ("M87", "M88"), "ok",
        {"J319": (["M87", "M88"], [2, 1], None)},
    ),
    _case(
        "capital_heading_and_name_with_tonnage",
        "PRESS SHOP\nM89 = 200t press\nJ320 M89 2h\n",
        ("M89",), "ok",
        {"J320": (["M89"], [2], None)},
    ),
    _case(
        "numbered_with_dash_after_number",
        "Machines: M89, M90.\n1 - J321: M89 1h\n2 - J322: M90 2h\n",
        ("M89", "M90"), "ok",
        {"J321": (["M89"], [1], None), "J322": (["M90"], [2], None)},
    ),
    _case(
        "operation_word_lines",
        "Machines: M90, M91.\nJ323 Operation 10 M90 1h\nJ323 Operation 20 M91 2h\n",
        ("M90", "M91"), "ok",
        {"J323": (["M90", "M91"], [1, 2], None)},
    ),
    _case(
        "machine_sections_bare_name_tab_indent",
        "M90 laser:\n\tJ324 1h\nM91 bender:\n\tJ325 2h\n",
        ("M90", "M91"), "ok",
        {"J324": (["M90"], [1], None), "J325": (["M91"], [2], None)},
    ),
    _case(
        "machine_sections_job_twice",
        "M90 laser:\n\tJ324 1h\nM91 bender:\n\tJ324 2h\n",
        ("M90", "M91"), FAILS,
    ),
    _case(
        "revisit_with_each",
        "Machines: M90, M91.\nJ326: M90 \u2192 M91 \u2192 M90 (1h each)\n",
        ("M90", "M91"), "ok",
        {"J326": (["M90", "M91", "M90"], [1, 1, 1], None)},
    ),
    _case(
        "nok_back_to",
        "Machines: M90, M91.\nJ326: M90 1h, M91 1h, if NOK back to M91\n",
        ("M90", "M91"), FAILS,
    ),
    _case(
        "table_cell_alternative",
        "Job;Machine;Hours\nJ327;M92/M93;2\n",
        None, FAILS,
    ),
    _case(
        "key_value_lines_split",
        "J328\n  Station: M92\n  Hrs: 2\n  Station: M93\n  Hrs: 1\n",
        ("M92", "M93"), "ok",
        {"J328": (["M92", "M93"], [2, 1], None)},
    ),
]


#: A third batch, written after the second round of fixes and measured before any change for
#: it.
THIRD_CASES: list[LabelledCase] = [
    _case(
        "slack_bullets_bold_job",
        "\u2022 *J501*: M141 2h \u2192 M142 1h\n\u2022 *J502*: M142 3h\n",
        ("M141", "M142"), "ok",
        {"J501": (["M141", "M142"], [2, 1], None), "J502": (["M142"], [3], None)},
    ),
    _case(
        "original_message_block",
        "Thanks, will do.\n"
        "\n"
        "-----Original Message-----\n"
        "From: Kai\n"
        "Sent: Monday 16:02\n"
        "Subject: routes\n"
        "\n"
        "J503: M141 1h, M143 2h\n"
        "M141 = saw, M143 = paint\n",
        ("M141", "M143"), "ok",
        {"J503": (["M141", "M143"], [1, 2], None)},
    ),
    _case(
        "fixed_width_numbered_headers",
        "Job No.   Machine No.   Std hrs\n"
        "J504      M144          2\n"
        "J504      M145          1\n"
        "J505      M145          3\n",
        ("M144", "M145"), "ok",
        {"J504": (["M144", "M145"], [2, 1], None), "J505": (["M145"], [3], None)},
    ),
    _case(
        "starts_with_followed_by_parenthesised",
        "Machines: M146, M147.\nJ506 starts with M146 (30 min), followed by M147 (1.5 h).\n",
        ("M146", "M147"), ROUNDED,
        {"J506": (["M146", "M147"], [1, 2], None)},
    ),
    _case(
        "dash_durations_slash_steps",
        "Machines: M146, M147.\nJ507: M146 - 2h / M147 - 1h\n",
        ("M146", "M147"), "ok",
        {"J507": (["M146", "M147"], [2, 1], None)},
    ),
    _case(
        "needed_for_clock_with_minutes",
        "Machines: M148, M149.\nJ508: M148 1h, M149 1h, needed for 2:30pm\n",
        ("M148", "M149"), "ok",
        {"J508": (["M148", "M149"], [1, 1], 14)},
    ),
    _case(
        "eta_is_not_a_due",
        "Machines: M148, M149.\nJ509: M148 1h, M149 1h, ETA 16:00\n",
        ("M148", "M149"), FAILS,
    ),
    _case(
        "by_hour_tomorrow",
        "Machines: M148, M149.\nJ510: M148 1h, M149 1h, by 11 tomorrow\n",
        ("M148", "M149"), FAILS,
    ),
    _case(
        "ship_date_today_line",
        "Machines: M148, M149.\nJ511: M148 1h, M149 2h.\nShip date: today 17:00\n",
        ("M148", "M149"), "ok",
        {"J511": (["M148", "M149"], [1, 2], 17)},
    ),
    _case(
        "step_lines_under_job_header",
        "Machines: M150, M151.\nJ512:\nStep 1: M150 2h\nStep 2: M151 1h\n",
        ("M150", "M151"), "ok",
        {"J512": (["M150", "M151"], [2, 1], None)},
    ),
    _case(
        "machine_word_before_section_id",
        "Machine M152 (lathe):\n- J513 2h\n- J514 1h\n",
        ("M152",), "ok",
        {"J513": (["M152"], [2], None), "J514": (["M152"], [1], None)},
    ),
    _case(
        "older_nested_quote_conflicts",
        "Machines: M153, M154.\nJ515: M153 1h, M154 1h\n\n> > J515: M153 2h, M154 1h\n",
        ("M153", "M154"), FAILS,
    ),
    _case(
        "range_all_go_each",
        "Machines: M153, M154.\nJobs J516-J518 all go M153 then M154, 1h each.\n",
        ("M153", "M154"), "ok",
        {
            "J516": (["M153", "M154"], [1, 1], None),
            "J517": (["M153", "M154"], [1, 1], None),
            "J518": (["M153", "M154"], [1, 1], None),
        },
    ),
    _case(
        "urgent_heading_and_names",
        "URGENT!!\nM156 = wash, M157 = dry\nJ519: wash 1h, dry 2h\n",
        ("M156", "M157"), "ok",
        {"J519": (["M156", "M157"], [1, 2], None)},
    ),
    _case(
        "chat_pls_each",
        "Machines: M156, M157.\nJ520 pls M156 then M157 1h each\n",
        ("M156", "M157"), "ok",
        {"J520": (["M156", "M157"], [1, 1], None)},
    ),
    _case(
        "headerless_bare_numbers",
        "Machines: M156, M157.\nJ521;10;M156;1,5\nJ521;20;M157;2\n",
        ("M156", "M157"), FAILS,
    ),
    _case(
        "batches_count_in_parentheses",
        "Machines: M156, M157.\nJ522 (x3 batches): M156 1h\n",
        ("M156", "M157"), FAILS,
    ),
    _case(
        "glued_hrs_units",
        "Machines: M156, M157.\nJ523: M156 2hrs, M157 1hr\n",
        ("M156", "M157"), "ok",
        {"J523": (["M156", "M157"], [2, 1], None)},
    ),
    _case(
        "for_followed_by_for",
        "Machines: M158, M159.\nJ524: M158 for 2h followed by M159 for 1h\n",
        ("M158", "M159"), "ok",
        {"J524": (["M158", "M159"], [2, 1], None)},
    ),
    _case(
        "pipe_table_notes_column",
        "| Job | Machine | Hours | Notes |\n"
        "|---|---|---|---|\n"
        "| J525 | M158 | 2 | new tool |\n"
        "| J525 | M159 | 1 | |\n",
        ("M158", "M159"), "ok",
        {"J525": (["M158", "M159"], [2, 1], None)},
    ),
]


#: A fourth batch, written after the third round of fixes and measured before any change for
#: it.
FOURTH_CASES: list[LabelledCase] = [
    _case(
        "decimal_comma_hours_arrows",
        "Machines: M201, M202.\nJ701 \u2192 M201 1,5 h \u2192 M202 0,5 h\n",
        ("M201", "M202"), ROUNDED,
        {"J701": (["M201", "M202"], [2, 1], None)},
    ),
    _case(
        "setup_and_run_in_parentheses",
        "Machines: M201, M202.\nJ702: M201 (setup 20 min, run 40 min), M202 1h\n",
        ("M201", "M202"), "ok",
        {"J702": (["M201", "M202"], [1, 1], None)},
    ),
    _case(
        "gmail_wrote_line_with_a_clock",
        "Fine by me.\n"
        "\n"
        "On Wed, Nov 25, 2026 at 4:10 PM Lars <lars@plant.example> wrote:\n"
        "> Machines: M203\n"
        "> J703: M203 2h\n",
        ("M203",), "ok",
        {"J703": (["M203"], [2], None)},
    ),
    _case(
        "em_dashes_and_upper_pm",
        "Machines: M204, M205.\nJ704 \u2014 M204 2h, M205 1h \u2014 due 3:00 PM\n",
        ("M204", "M205"), "ok",
        {"J704": (["M204", "M205"], [2, 1], 15)},
    ),
    _case(
        "at_sign_hours_each_abbreviated",
        "Machines: M204, M205, M206.\nJ705 goes M204>M205>M206 @ 1h ea\n",
        ("M204", "M205", "M206"), "ok",
        {"J705": (["M204", "M205", "M206"], [1, 1, 1], None)},
    ),
    _case(
        "spreadsheet_paste_with_an_empty_first_column",
        "\tJob\tMachine\tHours\n\tJ708\tM207\t2\n\tJ708\tM208\t1\n",
        ("M207", "M208"), "ok",
        {"J708": (["M207", "M208"], [2, 1], None)},
    ),
    _case(
        "schedule_heading_with_a_date",
        "Schedule for Thu 26/11\nMachines: M209.\nJ709: M209 1h\n",
        ("M209",), "ok",
        {"J709": (["M209"], [1], None)},
    ),
    _case(
        "dashes_between_job_machine_and_hours",
        "Machines: M209, M210.\nJ710 \u2013 M209 \u2013 2 hrs\nJ711 \u2013 M210 \u2013 1 hr\n",
        ("M209", "M210"), "ok",
        {"J710": (["M209"], [2], None), "J711": (["M210"], [1], None)},
    ),
    _case(
        "count_times_machine",
        "Machines: M209, M210.\nJ712: 2 x M209 1h\n",
        ("M209", "M210"), FAILS,
    ),
    _case(
        "needs_list_then_parenthesised_hours",
        "Machines: M210, M211, M212.\nJ713 needs M210, M211, M212 (1h, 2h, 1h)\n",
        ("M210", "M211", "M212"), "ok",
        {"J713": (["M210", "M211", "M212"], [1, 2, 1], None)},
    ),
    _case(
        "due_first_then_route_label",
        "Machines: M213, M214.\nJ714 due 15:00 sharp. Route: M213 2h \u2192 M214 1h.\n",
        ("M213", "M214"), "ok",
        {"J714": (["M213", "M214"], [2, 1], 15)},
    ),
    _case(
        "jobs_today_with_routes_in_parentheses",
        "Machines: M213, M214.\nJobs today: J715 (M213 2h), J716 (M214 1h)\n",
        ("M213", "M214"), "ok",
        {"J715": (["M213"], [2], None), "J716": (["M214"], [1], None)},
    ),
    _case(
        "line_names_with_numbers",
        "Line 2 (M215) and Line 3 (M216).\nJ717: Line 2 1h, Line 3 2h\n",
        ("M215", "M216"), "ok",
        {"J717": (["M215", "M216"], [1, 2], None)},
    ),
    _case(
        "inventory_sentence_then_bullet_by_names",
        "We have a saw (M217) and a drill (M218).\n- J718: saw 1h, drill 1h\n",
        ("M217", "M218"), "ok",
        {"J718": (["M217", "M218"], [1, 1], None)},
    ),
    _case(
        "minutes_without_separators",
        "Machines: M217, M218.\nJ720 M217 60min M218 120min\n",
        ("M217", "M218"), "ok",
        {"J720": (["M217", "M218"], [1, 2], None)},
    ),
    _case(
        "dispatch_sentence_after_route",
        "Machines: M219, M220.\nJ721: M219 2h, M220 1h. Dispatch 16:00.\n",
        ("M219", "M220"), "ok",
        {"J721": (["M219", "M220"], [2, 1], 16)},
    ),
    _case(
        "before_a_meeting_at_a_clock",
        "Machines: M219, M220.\nJ722: M219 1h, M220 1h, finished before the 15:00 meeting\n",
        ("M219", "M220"), "ok",
        {"J722": (["M219", "M220"], [1, 1], 15)},
    ),
    _case(
        "split_over_shifts",
        "Machines: M219, M220.\nJ723: M219 4h (split over two shifts)\n",
        ("M219", "M220"), FAILS,
    ),
    _case(
        "planned_return_in_minutes",
        "Machines: M219, M220.\nJ724: M219 1h, M220 1h, then back to M219 for 30 min\n",
        ("M219", "M220"), ROUNDED,
        {"J724": (["M219", "M220", "M219"], [1, 1, 1], None)},
    ),
    _case(
        "machine_out_of_order_used",
        "Machines: M221 (out of order), M222.\nJ725: M221 1h, M222 1h\n",
        ("M221", "M222"), FAILS,
    ),
]


#: A fifth batch, written after the fourth round of fixes and measured before any change for
#: it.
FIFTH_CASES: list[LabelledCase] = [
    _case(
        "semicolon_export_std_time_column",
        "Order;Seq;Work center;Std. time [h]\nJ901;10;M301;2\nJ901;20;M302;1\nJ902;10;M302;3\n",
        ("M301", "M302"), "ok",
        {"J901": (["M301", "M302"], [2, 1], None), "J902": (["M302"], [3], None)},
    ),
    _case(
        "reaction_lines_in_a_chat",
        "J903 M303 2h\n\U0001f44d 2\nJ904 M304 1h\n",
        ("M303", "M304"), "ok",
        {"J903": (["M303"], [2], None), "J904": (["M304"], [1], None)},
    ),
    _case(
        "signature_with_a_mobile_number",
        "Machines: M303, M304.\nJ903: M303 2h, M304 1h\n\nBest,\nLea\nM: +49 170 5550123\n",
        ("M303", "M304"), "ok",
        {"J903": (["M303", "M304"], [2, 1], None)},
    ),
    _case(
        "hours_given_after_the_route_with_and",
        "Machines: M303, M304.\nJ905 goes through M303, then M304; 2 and 1 hours.\n",
        ("M303", "M304"), "ok",
        {"J905": (["M303", "M304"], [2, 1], None)},
    ),
    _case(
        "unicode_half_hour",
        "Machines: M305, M306.\nJ906: M305 \u00bdh, M306 1h\n",
        ("M305", "M306"), ROUNDED,
        {"J906": (["M305", "M306"], [1, 1], None)},
    ),
    _case(
        "hour_and_minutes_words",
        "Machines: M305, M306.\nJ907: M305 1 hr 15 min, M306 1h\n",
        ("M305", "M306"), ROUNDED,
        {"J907": (["M305", "M306"], [2, 1], None)},
    ),
    _case(
        "upper_am_tomorrow",
        "Machines: M305, M306.\nJ908: M305 1h, by 10:00 AM tomorrow\n",
        ("M305", "M306"), FAILS,
    ),
    _case(
        "eod_with_its_clock",
        "Machines: M307.\nJ909: M307 2h, due EOD (16:00)\n",
        ("M307",), "ok",
        {"J909": (["M307"], [2], 16)},
    ),
    _case(
        "week_number_heading",
        "Week 48 plan\nMachines: M307.\nJ910: M307 2h\n",
        ("M307",), "ok",
        {"J910": (["M307"], [2], None)},
    ),
    _case(
        "two_jobs_joined_by_a_slash",
        "Machines: M307, M308.\nJ911/J912: M307 1h, M308 1h\n",
        ("M307", "M308"), "ok",
        {"J911": (["M307", "M308"], [1, 1], None), "J912": (["M307", "M308"], [1, 1], None)},
    ),
    _case(
        "times_line_after_a_route_line",
        "Machines: M308, M309.\nJ913 = M308 > M309\nTimes: 1h, 2h\n",
        ("M308", "M309"), "ok",
        {"J913": (["M308", "M309"], [1, 2], None)},
    ),
    _case(
        "pieces_without_a_cycle_time",
        "Machines: M308, M309.\nJ914 (2 pcs): M308 1h\n",
        ("M308", "M309"), FAILS,
    ),
    _case(
        "afterwards_after_a_semicolon",
        "Machines: M310, M311.\nJ915: M310 for 2 h; afterwards M311 for 1 h\n",
        ("M310", "M311"), "ok",
        {"J915": (["M310", "M311"], [2, 1], None)},
    ),
    _case(
        "one_pipe_between_steps",
        "Machines: M310, M311.\nJ916: M310 2h | M311 1h\n",
        ("M310", "M311"), "ok",
        {"J916": (["M310", "M311"], [2, 1], None)},
    ),
    _case(
        "route_goes_on_on_an_indented_line",
        "Machines: M312, M313.\nJ917 M312 2h,\n     M313 1h\n",
        ("M312", "M313"), "ok",
        {"J917": (["M312", "M313"], [2, 1], None)},
    ),
    _case(
        "extra_cleaning_time_in_parentheses",
        "Machines: M316, M317.\nJ918: M316 2h (+30 min cleaning)\n",
        ("M316", "M317"), FAILS,
    ),
    _case(
        "each_before_the_minutes",
        "Machines: M316, M317.\nJ919: M316 \u2192 M317, each 45 min\n",
        ("M316", "M317"), ROUNDED,
        {"J919": (["M316", "M317"], [1, 1], None)},
    ),
    _case(
        "each_job_on_one_machine",
        "Machines: M318.\nJ920 and J921 on M318 (1h each job)\n",
        ("M318",), "ok",
        {"J920": (["M318"], [1], None), "J921": (["M318"], [1], None)},
    ),
    _case(
        "nested_quote_only",
        "ok\n\n>> Machines: M319\n>> J922: M319 1h\n",
        ("M319",), "ok",
        {"J922": (["M319"], [1], None)},
    ),
    _case(
        "tab_rows_with_units_and_a_due",
        "J923\tM319\t2h\t14:00\nJ923\tM320\t1h\t14:00\nJ924\tM320\t30 min\t-\n",
        ("M319", "M320"), ROUNDED,
        {"J923": (["M319", "M320"], [2, 1], 14), "J924": (["M320"], [1], None)},
    ),
]


#: A sixth batch, written after the fifth round of fixes and measured before any change for
#: it: 8 correct, 6 coded fail, 1 silent wrong (``half_past_two_unclear``: a due sentence
#: the grammar could not read was skipped as prose, already so before this pass; fixed).
SIXTH_CASES: list[LabelledCase] = [
    _case(
        "greeting_for_the_early_shift",
        "Hi all, for the early shift:\nJ1001: M401 2h, M402 1h\n",
        ("M401", "M402"), "ok",
        {"J1001": (["M401", "M402"], [2, 1], None)},
    ),
    _case(
        "arrows_ending_in_done",
        "Machines: M401, M403.\nJ1002 -> M401 (2 hrs) -> M403 (1 hr) -> done\n",
        ("M401", "M403"), "ok",
        {"J1002": (["M401", "M403"], [2, 1], None)},
    ),
    _case(
        "csv_with_a_quoted_header",
        '"Job","Machine","Minutes"\n"J1003","M404","90"\n"J1003","M405","60"\n',
        ("M404", "M405"), ROUNDED,
        {"J1003": (["M404", "M405"], [2, 1], None)},
    ),
    _case(
        "same_job_on_two_plain_lines",
        "Machines: M405, M406.\nJ1004: M405 2h\nJ1004: M406 1h\n",
        ("M405", "M406"), FAILS,
    ),
    _case(
        "an_hour_and_two_elided",
        "Machines: M405, M406.\nJ1005 needs an hour on M405 and two on M406.\n",
        ("M405", "M406"), "ok",
        {"J1005": (["M405", "M406"], [1, 2], None)},
    ),
    _case(
        "half_past_two_unclear",
        "Machines: M407.\nJ1006: M407 2h. Should ship by half past two.\n",
        ("M407",), FAILS,
    ),
    _case(
        "machine_count_in_parentheses",
        "Machines (3): M408, M409, M410\nJ1007: M408 1h, M409 1h, M410 1h\n",
        ("M408", "M409", "M410"), "ok",
        {"J1007": (["M408", "M409", "M410"], [1, 1, 1], None)},
    ),
    _case(
        "total_for_two_steps",
        "Machines: M408, M409.\nJ1008: M408 \u2192 M409 (2h total)\n",
        ("M408", "M409"), FAILS,
    ),
    _case(
        "a_slot_from_to",
        "Machines: M411.\nJ1009 is on M411 from 08:00 to 10:00\n",
        ("M411",), FAILS,
    ),
    _case(
        "one_pipe_row_with_route_and_hours_cells",
        "Machines: M412, M413.\n| J1010 | M412 \u2192 M413 | 1h \u2192 2h |\n",
        ("M412", "M413"), "ok",
        {"J1010": (["M412", "M413"], [1, 2], None)},
    ),
    _case(
        "setup_included_note",
        "Machines: M415.\nJ1012: M415 2 h (incl. setup)\n",
        ("M415",), "ok",
        {"J1012": (["M415"], [2], None)},
    ),
    _case(
        "customer_pick_up_with_a_dash",
        "Machines: M415, M416.\nJ1013: M415 1h, M416 1h \u2013 customer pick-up 15:00\n",
        ("M415", "M416"), "ok",
        {"J1013": (["M415", "M416"], [1, 1], 15)},
    ),
    _case(
        "hours_first_on_each_step",
        "Machines: M417, M418.\nJ1014: 3 h on M417, 1 h on M418\n",
        ("M417", "M418"), "ok",
        {"J1014": (["M417", "M418"], [3, 1], None)},
    ),
    _case(
        "then_on_a_nested_bullet",
        "Machines: M417, M418.\nJ1015: M417 2h\n  - then M418 1h\n",
        ("M417", "M418"), "ok",
        {"J1015": (["M417", "M418"], [2, 1], None)},
    ),
    _case(
        "lower_case_machine_list_after_jobs",
        "J1016: M419 2h, M420 1h\nmachines are M419 and M420\n",
        ("M419", "M420"), "ok",
        {"J1016": (["M419", "M420"], [2, 1], None)},
    ),
]


ALL_CASES = (CASES + FOUND_CASES + SECOND_CASES + THIRD_CASES + FOURTH_CASES
             + FIFTH_CASES + SIXTH_CASES)

#: Cases the reader still misses: each must fail with a code, never be read wrongly.
#: Three are refused on purpose by rules the reader had before these sets
#: (tests/factory/test_reading*.py): only a departure (truck, courier) after "before the 2pm"
#: is a due time (``before_a_meeting_at_a_clock``), and a slash or a single pipe between steps
#: may separate alternatives or routes side by side (``dash_durations_slash_steps``,
#: ``one_pipe_between_steps``).
KNOWN_MISSES = frozenset({
    "an_hour_and_two_elided",
    "dash_durations_slash_steps",
    "times_line_after_a_route_line",
    "one_pipe_between_steps",
    "before_a_meeting_at_a_clock",
    "chat_correction_replaces_the_line",
    "rush_note_is_not_a_due",
    "square_bracket_notes",
    "shift_b_note_with_routes",
})


@pytest.mark.parametrize("case", ALL_CASES,
                         ids=[case.name for case in
                              ALL_CASES])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    check_case(case, KNOWN_MISSES)


def test_rounded_cases_record_the_rounding() -> None:
    check_rounding(ALL_CASES, KNOWN_MISSES)


def test_the_set_is_large_and_its_names_distinct() -> None:
    assert len(CASES) >= 50
    every = ALL_CASES
    assert len({case.name for case in every}) == len(every)


def main() -> None:
    """Print per batch the totals (correct / safe fail / silent wrong) and the cases not
    correct."""
    print_totals((("first batch", CASES), ("found while reading", FOUND_CASES),
                  ("second batch", SECOND_CASES), ("third batch", THIRD_CASES),
                  ("fourth batch", FOURTH_CASES), ("fifth batch", FIFTH_CASES),
                  ("sixth batch", SIXTH_CASES)))


if __name__ == "__main__":
    main()
