"""The offline reader on phrasings written for these tests, not taken from any corpus (#24).

Each case is a description the way a planner, a shift lead, an ERP export or an e-mail would
write it, with what a careful planner reads from it: the configuration (machine ids; per job
the route, the hours and the due hour) or the coded failure the contract demands when the text
is genuinely ambiguous. Cases are graded exactly like ``repro-assets eval factory`` grades a
cases file (:func:`repro_assets.factory.grading.grade`), so a case is ``correct``, a ``safe
fail`` or ``silent wrong``; every case here must be ``correct``.

``python -m tests.factory.test_unseen_phrasings`` prints the totals and every case that is not
correct (the measurement of the second pass on #24).
"""

from __future__ import annotations

from collections import Counter

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import Grade, LabelledCase, Verdict, grade
from repro_assets.factory.models import ExtractionError
from tests.factory.labelled import labelled_case

_case = labelled_case


CASES: list[LabelledCase] = [
    _case(
        "shift_handover_arrows",
        "Handover night -> morning. Kit on the floor: M1 brake press, M2 spot welder,"
        " M3 paint booth.\n"
        "J1 goes M1 (2h) -> M2 (1h) -> M3 (3h), needs to ship 10am.\n"
        "J2 goes M2 (2h) -> M3 (2h).\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [2, 1, 3], 10), "J2": (["M2", "M3"], [2, 2], None)},
    ),
    _case(
        "semicolon_export_with_header",
        "order;step;resource;hours;due\nJ10;1;M4;2;16:00\nJ10;2;M5;1;16:00\nJ11;1;M5;3;\n",
        ("M4", "M5"),
        "ok",
        {"J10": (["M4", "M5"], [2, 1], 16), "J11": (["M5"], [3], None)},
    ),
    _case(
        "tab_export_minutes",
        "job\tmachine\tminutes\nJ1\tM1\t120\nJ1\tM2\t60\nJ2\tM2\t180\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "email_default_once",
        "Hello team,\n"
        "\n"
        "Every operation takes one hour unless I say otherwise.\n"
        "Machines are M1 (saw), M2 (drill) and M3 (paint).\n"
        "J1 runs M1, M2, M3.\n"
        "J2 runs M1 then M3, but the paint step takes 2 hours.\n"
        "\n"
        "Cheers, Tom",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 1, 1], None), "J2": (["M1", "M3"], [1, 2], None)},
    ),
    _case(
        "standard_route_with_skip",
        "Machines: M1 cutter, M2 bender, M3 welder.\n"
        "Standard route is M1 2h, M2 1h, M3 1h.\n"
        "J1, J2 and J3 follow the standard route, except J3 which skips M2.\n",
        ("M1", "M2", "M3"),
        "ok",
        {
            "J1": (["M1", "M2", "M3"], [2, 1, 1], None),
            "J2": (["M1", "M2", "M3"], [2, 1, 1], None),
            "J3": (["M1", "M3"], [2, 1], None),
        },
    ),
    # Fractional hours are rounded up (never shorter than stated) with a recorded repair.
    _case(
        "hours_minutes_compact",
        "M1 = lathe, M2 = grinder\nJ4: M1 1h30, M2 0h30\n",
        ("M1", "M2"),
        "ok_rounded",
        {"J4": (["M1", "M2"], [2, 1], None)},
    ),
    _case(
        "duration_hhmm_whole",
        "M1 = lathe, M2 = grinder\nJ4: M1 2h00, M2 1h00\nJ5: M2 3h00\n",
        ("M1", "M2"),
        "ok",
        {"J4": (["M1", "M2"], [2, 1], None), "J5": (["M2"], [3], None)},
    ),
    _case(
        "setup_plus_run",
        "Machines: M1 (press), M2 (oven)\n"
        "J1: M1 setup 30 min + run 90 min, then M2 run 2h\n"
        "J2: M2 setup 1h + run 1h\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 2], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "qty_times_cycle",
        "Machines: M1 (molding), M2 (trim)\n"
        "J1: 240 pcs on M1 at 30 s each, then M2 1h\n"
        "J2: M2 2h\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "due_3pm_variants",
        "M1 mill, M2 drill.\n"
        "J1: M1 2h, M2 1h; due by 3pm\n"
        "J2: M2 1h; due 3 p.m.\n"
        "J3: M1 1h; due at 15h\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 15), "J2": (["M2"], [1], 15), "J3": (["M1"], [1], 15)},
    ),
    _case(
        "due_end_of_shift_stated",
        "Day shift ends at 18:00.\n"
        "Machines: M1 saw, M2 sander.\n"
        "J1: M1 2h, M2 2h - end of shift\n"
        "J2: M2 1h - no rush\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 2], 18), "J2": (["M2"], [1], None)},
    ),
    _case(
        "id_range_jobs",
        "Machines: M1 (cut), M2 (fold).\nJ1 to J3 each run M1 1h then M2 2h.\n",
        ("M1", "M2"),
        "ok",
        {
            "J1": (["M1", "M2"], [1, 2], None),
            "J2": (["M1", "M2"], [1, 2], None),
            "J3": (["M1", "M2"], [1, 2], None),
        },
    ),
    _case(
        "id_range_dash",
        "Machines: M1 (cut), M2 (fold).\nJobs J1-J3: M1 1h, M2 2h each.\n",
        ("M1", "M2"),
        "ok",
        {
            "J1": (["M1", "M2"], [1, 2], None),
            "J2": (["M1", "M2"], [1, 2], None),
            "J3": (["M1", "M2"], [1, 2], None),
        },
    ),
    _case(
        "lookalike_bolts",
        "Machines: M1 (tapping), M2 (assembly)\n"
        "J1: tap the M8 holes on M1 for 2h, then assemble on M2 for 1h\n"
        "J2: M2 3h\n",
        ("M1", "M2"),
        "COVERAGE_MISMATCH_OR_INVALID_STRUCTURE",
        None,
    ),
    _case(
        "lookalike_model",
        "Machines: M1 (cnc), M2 (qc)\nJ1 (for the Model J500 housing): M1 3h, M2 1h\n",
        ("M1", "M2"),
        "COVERAGE_MISMATCH_OR_INVALID_STRUCTURE",
        None,
    ),
    _case(
        "ids_only_in_routes",
        "Today's plan:\nJ1: M1 2h > M2 1h\nJ2: M2 2h > M3 2h\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2", "M3"], [2, 2], None)},
    ),
    _case(
        "alternative_machines",
        "Machines: M1 (lathe), M2 (mill), M3 (mill).\nJ1: M1 2h, then M2 or M3 for 1h.\n",
        ("M1", "M2", "M3"),
        "COVERAGE_MISMATCH_OR_INVALID_STRUCTURE",
        None,
    ),
    _case(
        "alternative_either",
        "Machines: M1, M2, M3.\nJ1: M1 1h, then either M2 or M3 1h.\nJ2: M2 1h.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "undeclared_machine",
        "We have two machines, M1 (lathe) and M2 (mill).\nJ1: M1 1h, M2 2h.\nJ2: M1 1h, M5 2h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "rework_conditional",
        "Machines: M1 weld, M2 inspect.\n"
        "J1: M1 2h, M2 1h; if inspection fails it goes back to M1 for 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "rework_always",
        "Machines: M1 (grind), M2 (measure).\nJ1: M1 1h, M2 1h, back to M1 1h, then M2 1h again.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2", "M1", "M2"], [1, 1, 1, 1], None)},
    ),
    _case(
        "typo_lower",
        "machines: m1 lathe, m2 mill\nj1: m1 2h, m2 1h\nj2: m2 2h\n",
        ("M1", "M2"),
        "COVERAGE_MISMATCH_OR_NO_IDS",
        None,
    ),
    _case(
        "pipes_no_header",
        "M1 = jointer, M2 = edgebander\n"
        "J7 | M1 | 2h | 14:00\n"
        "J7 | M2 | 1h | 14:00\n"
        "J8 | M2 | 2h | -\n",
        ("M1", "M2"),
        "ok",
        {"J7": (["M1", "M2"], [2, 1], 14), "J8": (["M2"], [2], None)},
    ),
    _case(
        "markdown_table_steps_columns",
        "Machines: M1 lathe, M2 mill, M3 polisher\n"
        "\n"
        "| Job | Step 1 | Step 2 | Step 3 | Due |\n"
        "|---|---|---|---|---|\n"
        "| J1 | M1 2h | M2 1h | M3 1h | 12:00 |\n"
        "| J2 | M2 2h | M3 1h | | |\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [2, 1, 1], 12), "J2": (["M2", "M3"], [2, 1], None)},
    ),
    _case(
        "prose_sentence_per_step",
        "There are two machines: M1 is the laser and M2 is the panel bender.\n"
        "J1 starts on the laser, M1, for 2 hours. Then J1 moves to M2 for 1 hour.\n"
        "J2 only needs M2, for 3 hours, and must be finished by noon.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], 12)},
    ),
    _case(
        "weekday_due",
        "Machines: M1 (oven), M2 (pack).\n"
        "J1: M1 2h, M2 1h - ship Friday 14:00\n"
        "J2: M2 1h - ship Monday 9am\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "job_without_steps",
        "Machines: M1 saw, M2 drill.\nJ1: M1 1h, M2 1h.\nJ2: waiting for drawings.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "stated_count_mismatch",
        "We run three machines: M1 and M2.\nJ1: M1 1h, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "no_ids",
        "We cut, we bend, we weld. Usually about five jobs a day.\n",
        None,
        "NO_IDS_OR_COVERAGE_MISMATCH",
        None,
    ),
    _case(
        "minutes_in_prose",
        "Machines: M1 shear, M2 brake.\n"
        "J1 takes 60 minutes on M1 and 120 minutes on M2.\n"
        "J2 takes 180 minutes on M2.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "colon_step_list_bullets",
        "Machines\n"
        "* M1 - CNC lathe\n"
        "* M2 - CNC mill\n"
        "\n"
        "Jobs\n"
        "* J1 - M1 (3 h), M2 (2 h), due 17:00\n"
        "* J2 - M2 (1 h)\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [3, 2], 17), "J2": (["M2"], [1], None)},
    ),
    _case(
        "route_then_hours_separate",
        "Machines: M1 lathe, M2 mill.\nJ1 route: M1 -> M2. Hours: 2, 1.\nJ2 route: M2. Hours: 4.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [4], None)},
    ),
    _case(
        "csv_with_spaces_header",
        "Job ID, Machine ID, Duration (h), Due Hour\nJ1, M1, 2, 13\nJ1, M2, 1, 13\nJ2, M1, 1, \n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 13), "J2": (["M1"], [1], None)},
    ),
    _case(
        "all_jobs_same_route_except_extra",
        "Machines: M1 (cut), M2 (weld), M3 (paint).\n"
        "All jobs go M1 1h, M2 2h. J3 also needs M3 for 1h at the end.\n"
        "Jobs: J1, J2, J3.\n",
        ("M1", "M2", "M3"),
        "ok",
        {
            "J1": (["M1", "M2"], [1, 2], None),
            "J2": (["M1", "M2"], [1, 2], None),
            "J3": (["M1", "M2", "M3"], [1, 2, 1], None),
        },
    ),
    _case(
        "fixed_width_report",
        "OPERATIONS LIST   SITE 3\n"
        "\n"
        "JOB    SEQ  MACHINE  HOURS\n"
        "J21    10   M7       2\n"
        "J21    20   M8       1\n"
        "J22    10   M8       3\n",
        ("M7", "M8"),
        "ok",
        {"J21": (["M7", "M8"], [2, 1], None), "J22": (["M8"], [3], None)},
    ),
    _case(
        "due_noon_midnight_words",
        "M1 mill, M2 wash.\nJ1: M1 2h, M2 1h, due noon.\nJ2: M2 1h, due by 1 pm.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 12), "J2": (["M2"], [1], 13)},
    ),
    _case(
        "email_filler_ids_in_signature",
        "Hi,\n"
        "Please find the plan. Machines: M1 (lathe), M2 (mill).\n"
        "J1: M1 1h, M2 2h.\n"
        "J2: M1 3h.\n"
        "Regards,\n"
        "Ann (ext. 4411)\n"
        "Sent from my phone\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M1"], [3], None)},
    ),
    _case(
        "for_each_job_in_list",
        "Machines: M1 (saw), M2 (drill).\n"
        "Jobs J4, J5: both go M1 2h then M2 1h.\n"
        "Job J6: M2 only, 2h.\n",
        ("M1", "M2"),
        "ok",
        {
            "J4": (["M1", "M2"], [2, 1], None),
            "J5": (["M1", "M2"], [2, 1], None),
            "J6": (["M2"], [2], None),
        },
    ),
    _case(
        "unit_words_hrs",
        "M1: lathe | M2: mill\nJ1 -> M1 2 hrs, M2 3 hrs, due 16:30\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 3], 16)},
    ),
    # A correction that names the value it replaces is certain.
    _case(
        "corrected_value",
        "Machines: M1 lathe, M2 mill.\nJ1: M1 2h, M2 1h.\nCorrection: J1 needs 3h on M1, not 2h.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [3, 1], None)},
    ),
    # Second batch, written after the first fixes to measure them on fresh wordings.
    _case(
        "mes_export_pipe_header_minutes",
        "WO | OP | WC | SETUP MIN | RUN MIN | DUE\n"
        "J31 | 10 | M2 | 30 | 90 | 15:00\n"
        "J31 | 20 | M3 | 0 | 60 | 15:00\n"
        "J32 | 10 | M3 | 15 | 45 | \n",
        ("M2", "M3"),
        "ok",
        {"J31": (["M2", "M3"], [2, 1], 15), "J32": (["M3"], [1], None)},
    ),
    _case(
        "shift_note_informal",
        "night shift notes - M1 (planer) and M2 (sander) both running fine.\n"
        "J1 still needs 2h on M1 and then 1h on M2, has to be out by 6am.\n"
        "J2: sander only, 3 hrs.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 6), "J2": (["M2"], [3], None)},
    ),
    _case(
        "each_job_sentence_minutes",
        "Two stations: M1 (print) and M2 (laminate).\n"
        "J1 spends 90 minutes on M1, then 30 minutes on M2.\n"
        "J2 spends 60 minutes on M2.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [1], None)},
    ),
    _case(
        "route_with_step_numbers",
        "Machines: M1 = cutter, M2 = stitcher, M3 = press\n"
        "J1 steps: (1) M1 1h (2) M2 2h (3) M3 1h\n"
        "J2 steps: (1) M3 2h\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 2, 1], None), "J2": (["M3"], [2], None)},
    ),
    _case(
        "same_as_job",
        "Machines: M1 (drill), M2 (tap).\n"
        "J1: M1 2h, M2 1h, due 14:00.\n"
        "J2: same as J1, due 16:00.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 14), "J2": (["M1", "M2"], [2, 1], 16)},
    ),
    _case(
        "every_job_one_hour_each_step",
        "Machines: M1, M2, M3.\nEach step is one hour.\nJ1: M1 -> M2 -> M3\nJ2: M3 -> M1\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 1, 1], None), "J2": (["M3", "M1"], [1, 1], None)},
    ),
    _case(
        "due_5_30pm_rounding",
        "Machines: M1 (mill).\nJ1: M1 2h, due 5:30pm.\n",
        ("M1",),
        "ok",
        {"J1": (["M1"], [2], 17)},
    ),
    _case(
        "conditional_maybe",
        "Machines: M1 (weld), M2 (grind).\nJ1: M1 2h, maybe M2 1h if the welds are rough.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "parallel_steps",
        "Machines: M1 (oven), M2 (press), M3 (pack).\n"
        "J1: M1 2h and M2 1h in parallel, then M3 1h.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    # Coded failure: bare numbers in a header-less export carry no unit (hours? minutes?).
    _case(
        "csv_semicolon_no_header_decimal",
        "J3;M1;2,0\nJ3;M2;1,0\nJ4;M2;3,0\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        {"J3": (["M1", "M2"], [2, 1], None), "J4": (["M2"], [3], None)},
    ),
    _case(
        "machine_list_table_then_jobs",
        "| Machine | Name |\n"
        "|---|---|\n"
        "| M1 | laser |\n"
        "| M2 | bender |\n"
        "\n"
        "J1: M1 1h, M2 2h\n"
        "J2: M2 1h, due 9:00\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M2"], [1], 9)},
    ),
    _case(
        "range_machines_route_word",
        "We have machines M1-M3: M1 lathe, M2 mill, M3 grinder.\nJ1: M1 2h, M3 1h\nJ2: M2 1h\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M3"], [2, 1], None), "J2": (["M2"], [1], None)},
    ),
    # The day of the pickup is not said, and an 8am pickup after a plan that starts that
    # morning is most likely the next day: no certain due hour.
    _case(
        "due_tomorrow_morning",
        "Machines: M1 (saw), M2 (paint)\nJ1: M1 1h, M2 2h. Customer picks it up at 8am.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "typo_id_letter_o",
        "Machines: M1 (saw), M2 (drill)\nJ1: M1 2h, MO2 1h\n",
        ("M1", "M2"),
        "fail",
        None,
    ),
    _case(
        "hours_first_phrasing",
        "Machines: M1 = press, M2 = oven\nJ1: 2h on M1, then 3h in M2\nJ2: 1h in M2\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 3], None), "J2": (["M2"], [1], None)},
    ),
    # Third batch, written after the second round of fixes.
    _case(
        "teams_message_terse",
        "ok so for tmrw: J1 M1 3h>M2 1h, J2 M2 2h. machines are M1 (lathe) M2 (mill)\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [3, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "half_an_hour_rounding",
        "Machines: M1 (wash), M2 (dry).\nJ1: M1 half an hour, M2 2h.\n",
        ("M1", "M2"),
        "ok_rounded",
        {"J1": (["M1", "M2"], [1, 2], None)},
    ),
    _case(
        "twice_on_machine",
        "Machines: M1 (coat), M2 (cure).\nJ1: M1 1h, M2 2h, twice.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "unless_condition",
        "Machines: M1 (saw), M2 (drill).\nJ1: M1 1h, M2 1h unless the holes are pre-drilled.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "default_then_override_parens",
        "Count 2 hours for each step unless noted.\n"
        "Machines: M1, M2, M3.\n"
        "J1: M1, M2 (1h), M3\n"
        "J2: M3\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [2, 1, 2], None), "J2": (["M3"], [2], None)},
    ),
    _case(
        "two_defaults_conflict",
        "Each step takes 1h.\nEvery step takes 2 hours.\nMachines: M1, M2.\nJ1: M1, M2\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "due_two_times_conflict",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h, due 14:00.\nJ1 must ship by 16:00.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "routing_arrows_unicode",
        "Machines: M1 (cutter), M2 (sewing), M3 (pack)\n"
        "J1 → M1 (1h) → M2 (3h) → M3 (1h)\n"
        "J2 → M2 (2h) → M3 (1h) | due 17:00\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 3, 1], None), "J2": (["M2", "M3"], [2, 1], 17)},
    ),
    # A route through a machine the same text says is down: the text contradicts itself.
    _case(
        "machine_down_used",
        "Machines: M1 (lathe), M2 (mill, down for maintenance today).\nJ1: M1 2h, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "jobs_listed_then_routes_by_sentence",
        "Jobs today: J1, J2.\n"
        "Machines: M1 (oven), M2 (cooler).\n"
        "J1 bakes in M1 for 2 hours and cools in M2 for 1 hour.\n"
        "J2 cools in M2 for 2 hours.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "job_mentioned_no_route",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h.\nJ2 is on hold.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "approximate_duration",
        "Machines: M1 (mixer), M2 (filler).\nJ1: M1 roughly 2h, M2 1h.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None)},
    ),
    _case(
        "hours_in_decimal_whole",
        "Machines: M1 (press), M2 (trim)\nJ1: M1 2.0 h, M2 1.0 h, due 13.00\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 13)},
    ),
    _case(
        "extra_machine_in_list_unused",
        "Machines: M1 (saw), M2 (drill), M3 (spare, not used this week).\nJ1: M1 1h, M2 1h.\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2"], [1, 1], None)},
    ),
    _case(
        "minutes_shorthand_prime",
        "Machines: M1 (cnc), M2 (wash)\nJ1: M1 120', M2 60'\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    # Fourth batch, written after the third round of fixes.
    _case(
        "email_table_tab_header_due_words",
        "Hi all,\n"
        "below the list for Monday.\n"
        "\n"
        "Job\tRoute\tDue\n"
        "J1\tM1 2h, M2 1h\t3pm\n"
        "J2\tM2 2h\tnone\n"
        "\n"
        "Machines: M1 welding robot, M2 grinding cell.\n"
        "Best, Ivo\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], 15), "J2": (["M2"], [2], None)},
    ),
    _case(
        "each_job_then_list_of_steps_lines",
        "Machines: M1 (saw), M2 (mill), M3 (buffing wheel)\n"
        "\n"
        "J1\n"
        "- M1 1h\n"
        "- M2 2h\n"
        "- M3 1h\n"
        "\n"
        "J2\n"
        "- M2 1h\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 2, 1], None), "J2": (["M2"], [1], None)},
    ),
    _case(
        "machine_ids_with_letters",
        "Machines: M_SAW, M_MILL.\nJ1: M_SAW 1h -> M_MILL 2h\n",
        ("M_SAW", "M_MILL"),
        "ok",
        {"J1": (["M_SAW", "M_MILL"], [1, 2], None)},
    ),
    _case(
        "due_for_all_jobs",
        "Machines: M1, M2.\nAll jobs are due at 16:00.\nJ1: M1 1h, M2 1h\nJ2: M2 2h\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 1], 16), "J2": (["M2"], [2], 16)},
    ),
    _case(
        "due_for_all_but_one",
        "Machines: M1, M2.\n"
        "Everything ships at 16:00 except J2, which ships at 12:00.\n"
        "J1: M1 1h, M2 1h\n"
        "J2: M2 2h\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 1], 16), "J2": (["M2"], [2], 12)},
    ),
    _case(
        "same_route_different_hours",
        "Machines: M1, M2.\nJ1: M1 2h, M2 1h.\nJ2 same route but 3h on M1.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M1", "M2"], [3, 1], None)},
    ),
    _case(
        "or_in_duration",
        "Machines: M1, M2.\nJ1: M1 2 or 3h, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "range_duration",
        "Machines: M1, M2.\nJ1: M1 2-3h, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "job_count_words",
        "Two jobs today on our three machines M1, M2 and M3.\n"
        "J1: M1 1h, M2 1h, M3 1h.\n"
        "J2: M3 2h.\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 1, 1], None), "J2": (["M3"], [2], None)},
    ),
    _case(
        "job_count_mismatch_words",
        "Three jobs today.\nMachines: M1, M2.\nJ1: M1 1h, M2 1h.\nJ2: M2 2h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "colon_times_hhmm_duration",
        "Machines: M1, M2.\nJ1: M1 for 2:00, M2 for 1:00\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None)},
    ),
    _case(
        "note_ignored_footer",
        "Machines: M1 (lathe), M2 (mill).\n"
        "J1: M1 2h, M2 1h.\n"
        "J2: M2 2h.\n"
        "PS: M2 coolant needs topping up on Friday.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [2], None)},
    ),
    _case(
        "after_lunch_due",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h, needed after lunch.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    # Fifth batch, written after the fourth round of fixes.
    _case(
        "erp_extra_columns_info",
        "ORDER,PART,QTY,OP,WORKCENTER,HRS,DUE\n"
        "J7,PN-4410,50,10,M3,2,14:00\n"
        "J7,PN-4410,50,20,M4,1,14:00\n"
        "J8,PN-9001,10,10,M4,3,\n",
        ("M3", "M4"),
        "ok",
        {"J7": (["M3", "M4"], [2, 1], 14), "J8": (["M4"], [3], None)},
    ),
    _case(
        "couple_of_hours",
        "Machines: M1, M2.\nJ1: M1 a couple of hours, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "hrs_and_min",
        "Machines: M1, M2.\nJ1: M1 2 hrs 30 min, M2 1h.\n",
        ("M1", "M2"),
        "ok_rounded",
        {"J1": (["M1", "M2"], [3, 1], None)},
    ),
    _case(
        "also_in_note_not_addition",
        "Machines: M1, M2, M3.\n"
        "All jobs go M1 1h, M2 1h.\n"
        "Jobs: J1, J2.\n"
        "M3 is also available if needed.\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2"], [1, 1], None), "J2": (["M1", "M2"], [1, 1], None)},
    ),
    _case(
        "default_with_except_job",
        "Machines: M1, M2, M3.\n"
        "Every job runs M1 -> M2 -> M3, 1h per step, except J2, which skips M2.\n"
        "Jobs: J1, J2.\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 1, 1], None), "J2": (["M1", "M3"], [1, 1], None)},
    ),
    _case(
        "step_list_durations_labelled_minutes",
        "Machines: M1, M2, M3.\nJ1 route: M1 -> M2 -> M3. Minutes: 60, 120, 60.\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 2, 1], None)},
    ),
    _case(
        "hours_label_mismatch_steps",
        "Machines: M1, M2, M3.\nJ1 route: M1 -> M2 -> M3. Hours: 1, 2.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "two_jobs_comma_no_route_after",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h, J2 too.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 1], None), "J2": (["M1", "M2"], [1, 1], None)},
    ),
    _case(
        "bullets_nested_job_steps",
        "Plan:\n"
        "- J1\n"
        "  - M1 2h\n"
        "  - M2 1h\n"
        "- J2\n"
        "  - M2 3h\n"
        "Machines are M1 (drill) and M2 (tap).\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "quoted_previous_email",
        "Machines: M1 (lathe), M2 (mill).\n"
        "J1: M1 2h, M2 1h.\n"
        "\n"
        "> On Monday, Sam wrote:\n"
        "> J1: M1 3h, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    # Due the next day: outside the one plan day that due hours are counted in.
    _case(
        "due_tomorrow_word",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h, due tomorrow 10:00.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "job_name_has_digits",
        "Machines: M1, M2.\nJ1 (bracket 200x40): M1 1h, M2 2h.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 2], None)},
    ),
    # Sixth batch, written after the fifth round of fixes.
    _case(
        "sentence_machine_names_only_after",
        "J1 first goes to the laser for 2 hours and then to the panel bender for 1 hour.\n"
        "J2 only needs the panel bender, 3 hours.\n"
        "Our machines: laser = M1, panel bender = M2.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)},
    ),
    _case(
        "tsv_header_step_cells",
        "Job\tOp 1\tOp 2\tOp 3\nJ1\tM1 1h\tM2 2h\tM3 1h\nJ2\tM3 2h\t\t\n",
        ("M1", "M2", "M3"),
        "ok",
        {"J1": (["M1", "M2", "M3"], [1, 2, 1], None), "J2": (["M3"], [2], None)},
    ),
    _case(
        "due_by_end_of_day_undefined",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h, due end of day.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "closing_hour_named_eod",
        "We close at 17:00 (EOD).\nMachines: M1, M2.\nJ1: M1 1h, M2 1h, due EOD.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 1], 17)},
    ),
    # The new machine's duration is not stated and the route gives no per-step duration.
    _case(
        "replace_machine_for_one_job",
        "Machines: M1, M2, M3.\n"
        "All jobs: M1 1h -> M2 2h.\n"
        "J2 uses M3 instead of M2.\n"
        "Jobs: J1, J2.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "machines_declared_by_is",
        "M1 is the saw and M2 is the drill.\nJ1: saw 1h, drill 2h.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 2], None)},
    ),
    _case(
        "job_ids_with_prefix_zero",
        "Machines: M01, M02.\nJ001: M01 1h, M02 1h\nJ002: M02 2h\n",
        ("M01", "M02"),
        "ok",
        {"J001": (["M01", "M02"], [1, 1], None), "J002": (["M02"], [2], None)},
    ),
    _case(
        "duplicated_job_lines_conflict",
        "Machines: M1, M2.\nJ1: M1 1h, M2 1h.\nJ1: M1 2h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "ids_in_range_jobs_to",
        "Machines: M1, M2.\nJ1 through J4: M1 1h then M2 1h.\n",
        ("M1", "M2"),
        "ok",
        {
            "J1": (["M1", "M2"], [1, 1], None),
            "J2": (["M1", "M2"], [1, 1], None),
            "J3": (["M1", "M2"], [1, 1], None),
            "J4": (["M1", "M2"], [1, 1], None),
        },
    ),
    _case(
        "parenthetical_alternative",
        "Machines: M1, M2, M3.\nJ1: M1 1h, M2 1h (or M3 if M2 is busy).\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    # Edges of the fixes above: each must stay a coded failure.
    _case(
        "unit_label_hours_on_their_own_line",
        "Every step takes 1h.\nMachines: M1, M2.\nJ1 route: M1 -> M2.\nHours: 2, 3.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "unit_label_more_hours_than_steps",
        "Machines: M1, M2.\nJ1 route: M1 -> M2. Hours: 2, 3, 4.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "machine_table_with_a_machine_down",
        "| Machine | Name |\n|---|---|\n| M1 | laser |\n| M2 | bender (down this week) |\n\n"
        "J1: M1 1h, M2 2h\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "machine_table_route_through_an_unlisted_machine",
        "| Machine | Name |\n|---|---|\n| M1 | laser |\n\nJ1: M1 1h, M2 2h\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "step_numbers_out_of_order",
        "Machines: M1, M2.\nJ1 steps: (2) M1 1h (1) M2 2h\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "arrow_between_words_next_to_a_route_without_job",
        "Shift A -> shift B.\nMachines: M1, M2.\nM1 2h -> M2 1h\nJ1: M1 1h\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "added_step_without_its_place",
        "Machines: M1, M2, M3.\nAll jobs go M1 1h, M2 2h. J3 also needs M3 for 1h.\n"
        "Jobs: J1, J2, J3.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "added_step_on_a_machine_the_route_visits",
        "Machines: M1, M2, M3.\nAll jobs go M1 1h, M2 2h. J3 also needs M2 1h at the end.\n"
        "Jobs: J1, J2, J3.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "named_step_not_in_the_route",
        "Every operation takes one hour.\nMachines: M1 (saw), M2 (drill), M3 (paint).\n"
        "J2 runs M1 then M3, but the drill step takes 2 hours.\n",
        ("M1", "M2", "M3"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "job_count_with_a_route_verb",
        "Two jobs go to machine M1.\nMachines: M1, M2\nJ1: M2 1h.\nJ2: M2 2h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "job_count_with_both",
        "Two jobs, both on our two machines M1 and M2.\nJ1: M1 1h.\nJ2: M2 2h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "job_header_with_its_name",
        "Machines: M1, M2\n\nJ1 (hub):\n- M1 1h\n- M2 2h\n\nJ2 (spacer)\n- M2 1h\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M2"], [1], None)},
    ),
    _case(
        "job_header_with_a_condition",
        "Machines: M1, M2\n\nJ1 (only if M2 is free):\n- M1 1h\n- M2 2h\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "nested_list_back_at_the_job_level",
        "Machines: M1, M2.\n- J1\n  - M1 2h\n- M2 1h\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
    _case(
        "name_equals_id_before_the_routes",
        "Machines: laser = M1, drill = M2.\nJ1: laser 2h, drill 1h.\n",
        ("M1", "M2"),
        "ok",
        {"J1": (["M1", "M2"], [2, 1], None)},
    ),
    _case(
        "name_equals_id_of_a_machine_that_is_down",
        "Machines: laser = M1, old drill (down) = M2.\nJ1: laser 2h, M2 1h.\n",
        ("M1", "M2"),
        "INVALID_STRUCTURE",
        None,
    ),
]


def _grade(case: LabelledCase) -> Grade:
    try:
        outcome = OnboardingAgent().run_detailed(case.text)
    except ExtractionError as error:
        return grade(case, error)
    return grade(case, outcome)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    result = _grade(case)
    assert result.verdict is Verdict.CORRECT, result


def test_rounded_cases_record_the_rounding() -> None:
    rounded = [case for case in CASES if case.expect == "ok_rounded"]
    assert rounded
    for case in rounded:
        repairs = OnboardingAgent().run_detailed(case.text).repairs
        assert any("rounded up" in repair for repair in repairs), case.name


def test_every_expectation_is_definite() -> None:
    for case in CASES:
        alternatives = case.alternatives
        assert not ({"ok", "ok_rounded"} & set(alternatives) and len(alternatives) > 1), case.name


def test_the_cases_have_distinct_names() -> None:
    assert len({case.name for case in CASES}) == len(CASES)


def main() -> None:
    """Print the totals (correct / safe fail / silent wrong) and the cases not correct."""
    totals: Counter[str] = Counter()
    for case in CASES:
        result = _grade(case)
        totals[result.verdict.value] += 1
        if result.verdict is not Verdict.CORRECT:
            print(f"{result.verdict.value:13} {case.name}: {result}")
    print(dict(totals), f"of {len(CASES)}")


if __name__ == "__main__":
    main()
