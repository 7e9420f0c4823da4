"""The offline reader on a check set of 40 staff phrasings, then batches 11-13 (#24).

The check set was written in one sitting, all 40 cases before any was run, to measure the reader
honestly on phrasings it had never seen: invented plants, people and wording, spread over every
family the issue names (tables of every delimiter with and without a header, ERP/MES exports,
bullets, e-mails, shift notes, a standard route with exceptions, a default stated once,
durations in minutes, ``1h30``, setup + run, quantity x cycle time, dues as ``3pm``, "end of
shift (22:00)" and weekdays, id ranges, look-alike ids, ids only in routes, typos, alternatives,
rework loops, undeclared machines). About a third must fail with a code: a route through a
machine never declared, an ambiguous due, an alternative machine, conflicting durations, a job
without a route.

Conventions of the earlier sets hold (``tests/factory/test_staff_phrasings.py``): fractional
hours are rounded up with a recorded repair (``ok_rounded``); a due on another day than the plan
day is a coded failure; a look-alike id may fail as a coverage mismatch or as an invalid
structure (both are the coded refusal).

``python -m tests.factory.test_staff_phrasings_c`` prints the totals per batch and every case
not correct.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import LabelledCase
from tests.factory.labelled import labelled_case
from tests.factory.phrasing_sets import (
    ROUNDED,
    check_case,
    check_rounding,
    fails,
    print_totals,
)

FAILS = "INVALID_STRUCTURE"
LOOKALIKE = "COVERAGE_MISMATCH_OR_INVALID_STRUCTURE"

_case = labelled_case

CHECK_SET: list[LabelledCase] = [
    # ------------------------------------------------------------------ tables
    _case(
        "c_tab_table_with_header",
        "Job\tRoute\tHours\tDue\n"
        "J3001\tM901 > M902\t2 > 1\t13:00\n"
        "J3002\tM902\t3\t\n",
        ("M901", "M902"), "ok",
        {"J3001": (["M901", "M902"], [2, 1], 13), "J3002": (["M902"], [3], None)},
    ),
    _case(
        "c_tab_rows_no_header_hours_in_cells",
        "Machines: M903, M904\n"
        "J3003\tM903 2h\tM904 1h\t15:00\n"
        "J3004\tM904 2h\t\t\n",
        ("M903", "M904"), "ok",
        {"J3003": (["M903", "M904"], [2, 1], 15), "J3004": (["M904"], [2], None)},
    ),
    _case(
        "c_semicolon_rows_without_header",
        "Plant Brackwater - cell B\n"
        "J3005;M905 1h;M906 2h;due 11:00\n"
        "J3006;M906 1h;M905 1h;\n",
        ("M905", "M906"), "ok",
        {"J3005": (["M905", "M906"], [1, 2], 11), "J3006": (["M906", "M905"], [1, 1], None)},
    ),
    _case(
        "c_pipe_table_without_outer_pipes",
        "Machines: M907 (hone), M908 (wash)\n"
        "Job | Stage 1 | Stage 2 | Ship\n"
        "J3007 | M907 2h | M908 1h | 4pm\n"
        "J3008 | M908 2h | - | -\n",
        ("M907", "M908"), "ok",
        {"J3007": (["M907", "M908"], [2, 1], 16), "J3008": (["M908"], [2], None)},
    ),
    _case(
        "c_csv_header_undeclared_machine",
        "Our machines: M909, M910\n"
        "job,machine,hours\n"
        "J3009,M909,2\n"
        "J3009,M911,1\n"
        "J3010,M910,2\n",
        ("M909", "M910"), FAILS,
    ),
    # ------------------------------------------------------------------ ERP / MES exports
    _case(
        "c_erp_setup_and_run_minutes",
        "ROUTING EXPORT  Plant Kessock\n"
        "Order,Op,WorkCtr,Setup (min),Run (min)\n"
        "J3011,10,M912,30,90\n"
        "J3011,20,M913,15,45\n"
        "J3012,10,M913,20,100\n",
        ("M912", "M913"), "ok",
        {"J3011": (["M912", "M913"], [2, 1], None), "J3012": (["M913"], [2], None)},
    ),
    _case(
        "c_mes_decimal_hours_rounded",
        "MES dispatch list - line 4\n"
        "Job     Seq  Resource  Std hrs  Due\n"
        "J3013   1    M914      1.50     14:00\n"
        "J3013   2    M915      0.75     14:00\n"
        "J3014   1    M915      2.00\n",
        ("M914", "M915"), ROUNDED,
        {"J3013": (["M914", "M915"], [2, 1], 14), "J3014": (["M915"], [2], None)},
    ),
    _case(
        "c_erp_quantity_and_minutes_per_piece",
        "Work order export\n"
        "WO;Op;Machine;Qty;Min/pc\n"
        "J3015;10;M916;60;2\n"
        "J3015;20;M917;60;1\n",
        ("M916", "M917"), "ok",
        {"J3015": (["M916", "M917"], [2, 1], None)},
    ),
    # ------------------------------------------------------------------ bullets
    _case(
        "c_bullets_minutes_and_h30_ship_by_3pm",
        "Machines: M918, M919\n"
        "* J3016 - M918 45 min -> M919 1h30, ship by 3pm\n"
        "* J3017 - M919 2h\n",
        ("M918", "M919"), ROUNDED,
        {"J3016": (["M918", "M919"], [1, 2], 15), "J3017": (["M919"], [2], None)},
    ),
    _case(
        "c_bullets_alternative_machine",
        "Machines: M920, M921, M922\n"
        "- J3018: M920 1h, then M921 or M922 2h\n"
        "- J3019: M922 1h\n",
        ("M920", "M921", "M922"), FAILS,
    ),
    # ------------------------------------------------------------------ e-mails
    _case(
        "c_email_prose_with_greeting",
        "Subject: tomorrow's work\n"
        "From: Petra Lindqvist\n"
        "\n"
        "Hi Omar,\n"
        "\n"
        "we have the saw (M923) and the drill (M924) for tomorrow. J3020 goes to the saw for "
        "two hours and then to the drill for an hour; it must leave by 4pm. J3021 only "
        "needs the drill, three hours.\n"
        "\n"
        "Thanks,\nPetra\n",
        ("M923", "M924"), "ok",
        {"J3020": (["M923", "M924"], [2, 1], 16), "J3021": (["M924"], [3], None)},
    ),
    _case(
        "c_email_weekday_due_without_plan_day",
        "Subject: two orders\n"
        "\n"
        "Hello, machines are M925 and M926.\n"
        "J3022: M925 2h then M926 1h, needed by Friday.\n"
        "J3023: M926 2h.\n"
        "Regards, Ines\n",
        ("M925", "M926"), FAILS,
    ),
    # ------------------------------------------------------------------ shift notes
    _case(
        "c_shift_note_end_of_shift_defined",
        "Late shift handover, Gwen\n"
        "Machines running: M927, M928\n"
        "J3024 still to do: M927 2h, M928 1h - due end of shift (22:00)\n"
        "J3025: M928 3h\n",
        ("M927", "M928"), "ok",
        {"J3024": (["M927", "M928"], [2, 1], 22), "J3025": (["M928"], [3], None)},
    ),
    _case(
        "c_shift_note_end_of_shift_undefined",
        "Shift notes - Radu\n"
        "Machines: M929, M930\n"
        "J3026: M929 1h, M930 2h, must be done by end of shift\n",
        ("M929", "M930"), FAILS,
    ),
    # ------------------------------------------------------------------ standard route
    _case(
        "c_standard_route_with_exceptions",
        "Machines: M931, M932, M933\n"
        "Jobs: J3027, J3028, J3029\n"
        "Every job goes M931 -> M932 -> M933, 1h per step.\n"
        "Exceptions: J3028 skips M932. J3029 needs 3h on M933.\n",
        ("M931", "M932", "M933"), "ok",
        {"J3027": (["M931", "M932", "M933"], [1, 1, 1], None),
         "J3028": (["M931", "M933"], [1, 1], None),
         "J3029": (["M931", "M932", "M933"], [1, 1, 3], None)},
    ),
    _case(
        "c_standard_flow_by_names",
        "Machines: cutter (M934), brake (M935), paint booth (M936).\n"
        "Standard flow: cutter 1h, brake 2h, paint booth 1h.\n"
        "J3030 and J3031 take the standard flow. J3032 is the same but without painting.\n",
        ("M934", "M935", "M936"), "ok",
        {"J3030": (["M934", "M935", "M936"], [1, 2, 1], None),
         "J3031": (["M934", "M935", "M936"], [1, 2, 1], None),
         "J3032": (["M934", "M935"], [1, 2], None)},
    ),
    _case(
        "c_standard_route_instead_of_undeclared",
        "Machines: M937, M938, M939.\n"
        "All jobs run M937 2h, M938 1h, M939 1h.\n"
        "J3033 and J3034 as standard; J3034 uses M940 instead of M938.\n",
        ("M937", "M938", "M939"), FAILS,
    ),
    # ------------------------------------------------------------------ defaults
    _case(
        "c_default_stated_once",
        "Machines: M941, M942, M943\n"
        "Unless noted, every operation takes 2 hours.\n"
        "J3035: M941, M942\n"
        "J3036: M942, M943 (1h)\n",
        ("M941", "M942", "M943"), "ok",
        {"J3035": (["M941", "M942"], [2, 2], None), "J3036": (["M942", "M943"], [2, 1], None)},
    ),
    _case(
        "c_conflicting_durations_same_step",
        "Machines: M944, M945\n"
        "J3037: M944 2h, M945 1h\n"
        "J3038: M945 2h\n"
        "Note: J3037 is 3h on M944.\n",
        ("M944", "M945"), FAILS,
    ),
    # ------------------------------------------------------------------ durations
    _case(
        "c_setup_plus_run",
        "Machines: M946, M947\n"
        "J3039: M946 setup 20 min + run 1h40, then M947 setup 30 min + run 30 min\n",
        ("M946", "M947"), "ok",
        {"J3039": (["M946", "M947"], [2, 1], None)},
    ),
    _case(
        "c_quantity_times_cycle_seconds",
        "Machines: M948 (press), M949 (deburr)\n"
        "J3040: 120 pcs x 30 s on M948, then M949 1h\n",
        ("M948", "M949"), "ok",
        {"J3040": (["M948", "M949"], [1, 1], None)},
    ),
    _case(
        "c_quantity_times_cycle_rounded",
        "Machines: M950, M951\n"
        "J3041: 500 pieces at 12 sec each on M950, then M951 2h\n",
        ("M950", "M951"), ROUNDED,
        {"J3041": (["M950", "M951"], [2, 2], None)},
    ),
    _case(
        "c_duration_range_two_or_three",
        "Machines: M952, M953\n"
        "J3042: M952 for 2 or 3 hours, then M953 1h\n",
        ("M952", "M953"), FAILS,
    ),
    _case(
        "c_hours_and_minutes_words",
        "Machines: M954, M955.\n"
        "J3043 runs on M954 for 1 hour 30 minutes and then on M955 for 2 hours.\n",
        ("M954", "M955"), ROUNDED,
        {"J3043": (["M954", "M955"], [2, 2], None)},
    ),
    # ------------------------------------------------------------------ dues
    _case(
        "c_due_3pm_and_noon",
        "Machines: M956, M957\n"
        "J3044: M956 1h, M957 1h, due 3pm\n"
        "J3045: M957 2h, due noon\n",
        ("M956", "M957"), "ok",
        {"J3044": (["M956", "M957"], [1, 1], 15), "J3045": (["M957"], [2], 12)},
    ),
    _case(
        "c_due_on_the_plan_weekday",
        "Plan for Tuesday. Machines: M958, M959.\n"
        "J3046: M958 2h, M959 1h, due Tuesday 11:00\n"
        "J3047: M959 1h\n",
        ("M958", "M959"), "ok",
        {"J3046": (["M958", "M959"], [2, 1], 11), "J3047": (["M959"], [1], None)},
    ),
    _case(
        "c_dues_on_two_weekdays",
        "Machines: M960, M961\n"
        "J3048: M960 2h, due Wednesday 10:00\n"
        "J3049: M961 1h, due Thursday 9:00\n",
        ("M960", "M961"), FAILS,
    ),
    # ------------------------------------------------------------------ id ranges
    _case(
        "c_id_range_with_to",
        "Machines: M962, M963\n"
        "J3050 to J3053: M962 1h then M963 2h each\n",
        ("M962", "M963"), "ok",
        {job: (["M962", "M963"], [1, 2], None)
         for job in ("J3050", "J3051", "J3052", "J3053")},
    ),
    _case(
        "c_en_dash_range_with_one_extra_step",
        "Machines: M964, M965\n"
        "J3054\u2013J3056: M964 2h\n"
        "J3055 additionally goes to M965 for 1h after M964.\n",
        ("M964", "M965"), "ok",
        {"J3054": (["M964"], [2], None), "J3055": (["M964", "M965"], [2, 1], None),
         "J3056": (["M964"], [2], None)},
    ),
    # ------------------------------------------------------------------ look-alike ids
    _case(
        "c_lookalike_insert_size",
        "Machines: M966 (press), M967 (bench)\n"
        "J3057: set the M4 inserts on M966 for 1h, then M967 1h\n",
        ("M966", "M967"), LOOKALIKE,
    ),
    _case(
        "c_lookalike_drawing_number",
        "Machines: M968, M969\n"
        "J3058 (customer drawing J4471 rev B): M968 2h, M969 1h\n",
        ("M968", "M969"), LOOKALIKE,
    ),
    # ------------------------------------------------------------------ ids only in routes
    _case(
        "c_ids_only_in_routes_arrows",
        "Tomorrow at Fenwick Works:\n"
        "J3059 > M970 2h > M971 1h\n"
        "J3060 > M971 2h\n",
        ("M970", "M971"), "ok",
        {"J3059": (["M970", "M971"], [2, 1], None), "J3060": (["M971"], [2], None)},
    ),
    # ------------------------------------------------------------------ typos
    _case(
        "c_typo_swapped_digits_in_route",
        "Machines: M972, M973\n"
        "J3061: M972 1h, M937 2h\n",
        ("M972", "M973"), FAILS,
    ),
    _case(
        "c_typo_in_heading_words",
        "Machnes: M974, M975\n"
        "Jbos:\n"
        "J3062: M974 2h, M975 1h\n"
        "J3063: M975 1h\n",
        ("M974", "M975"), "ok",
        {"J3062": (["M974", "M975"], [2, 1], None), "J3063": (["M975"], [1], None)},
    ),
    # ------------------------------------------------------------------ alternatives
    _case(
        "c_alternative_whichever_is_free",
        "Machines: M976, M977, M978\n"
        "J3064: M976 1h, then whichever of M977/M978 is available, 2h\n",
        ("M976", "M977", "M978"), FAILS,
    ),
    # ------------------------------------------------------------------ rework loops
    _case(
        "c_rework_loop_back_to_first",
        "Machines: M979 (mill), M980 (cmm)\n"
        "J3065: M979 2h, M980 1h, back to M979 for 1h rework, then M980 1h again\n",
        ("M979", "M980"), "ok",
        {"J3065": (["M979", "M980", "M979", "M980"], [2, 1, 1, 1], None)},
    ),
    # ------------------------------------------------------------------ undeclared machines
    _case(
        "c_undeclared_machine_in_prose",
        "We have two machines, M981 and M982. J3066 takes 2h on M981 and then 1h on M983.\n",
        ("M981", "M982"), FAILS,
    ),
    _case(
        "c_job_without_route",
        "Machines: M984, M985\n"
        "J3067: M984 1h, M985 2h\n"
        "J3068: waiting for material, no route yet\n",
        ("M984", "M985"), FAILS,
    ),
    # ------------------------------------------------------------------ more families
    _case(
        "c_sentence_per_step_narrative",
        "Machines: M988 (laser), M989 (folder).\n"
        "J3071 starts on the laser for one hour. Next it moves to the folder for two "
        "hours. It is due at 2pm.\n",
        ("M988", "M989"), "ok",
        {"J3071": (["M988", "M989"], [1, 2], 14)},
    ),
    _case(
        "c_machine_down_on_route",
        "Machines: M990, M991\n"
        "M991 is down all day for a spindle repair.\n"
        "J3072: M990 1h, M991 2h\n",
        ("M990", "M991"), FAILS,
    ),
]

#: Batch 11: 20 more, written after the changes for the check set, measured before any change.
BATCH_11: list[LabelledCase] = [
    _case(
        "b11_pipe_table_minutes_column",
        "| Job | Machine | Minutes |\n"
        "|---|---|---|\n"
        "| J4001 | M601 | 120 |\n"
        "| J4001 | M602 | 60 |\n"
        "| J4002 | M602 | 180 |\n",
        ("M601", "M602"), "ok",
        {"J4001": (["M601", "M602"], [2, 1], None), "J4002": (["M602"], [3], None)},
    ),
    _case(
        "b11_tab_header_setup_and_run_hours",
        "Job\tOp\tWork center\tSetup h\tRun h\tDue\n"
        "J4003\t10\tM603\t0.5\t1.5\t2pm\n"
        "J4003\t20\tM604\t0.5\t0.5\t2pm\n",
        ("M603", "M604"), "ok",
        {"J4003": (["M603", "M604"], [2, 1], 14)},
    ),
    _case(
        "b11_comma_rows_no_header_clock_last",
        "Machines: M605, M606\n"
        "J4004,M605 1h,M606 1h,11:00\n"
        "J4005,M606 2h,,\n",
        ("M605", "M606"), "ok",
        {"J4004": (["M605", "M606"], [1, 1], 11), "J4005": (["M606"], [2], None)},
    ),
    _case(
        "b11_plan_day_heading_with_abbreviated_weekday_due",
        "Friday's plan\n"
        "Machines: M607, M608\n"
        "- J4006: M607 2h, M608 1h, due Fri 10:00\n"
        "- J4007: M608 2h\n",
        ("M607", "M608"), "ok",
        {"J4006": (["M607", "M608"], [2, 1], 10), "J4007": (["M608"], [2], None)},
    ),
    _case(
        "b11_email_end_of_shift_defined_in_prose",
        "Subject: Re: plan\n"
        "\n"
        "Morning all. Day shift ends at 15:00 today.\n"
        "Machines are M609 and M610.\n"
        "J4008: M609 1h then M610 2h, due by end of shift.\n"
        "J4009: M610 1h.\n"
        "Cheers, Bogdan\n",
        ("M609", "M610"), "ok",
        {"J4008": (["M609", "M610"], [1, 2], 15), "J4009": (["M610"], [1], None)},
    ),
    _case(
        "b11_handover_down_machine_not_routed",
        "Handover night -> day, Femi\n"
        "Machines: M611, M612, M613. M613 is down (hydraulic leak), nothing routed there.\n"
        "J4010: M611 2h, M612 1h\n"
        "J4011: M612 2h\n",
        ("M611", "M612", "M613"), "ok",
        {"J4010": (["M611", "M612"], [2, 1], None), "J4011": (["M612"], [2], None)},
    ),
    _case(
        "b11_standard_route_with_a_replacement",
        "Machines: M614, M615, M616, M617\n"
        "All jobs: M614 -> M615 -> M616, 1h each.\n"
        "Jobs today: J4012, J4013.\n"
        "J4013 uses M617 instead of M615 (2h).\n",
        ("M614", "M615", "M616", "M617"), "ok",
        {"J4012": (["M614", "M615", "M616"], [1, 1, 1], None),
         "J4013": (["M614", "M617", "M616"], [1, 2, 1], None)},
    ),
    _case(
        "b11_default_then_listed_overrides",
        "Machines: M618, M619\n"
        "Each step takes 1h unless listed.\n"
        "J4014: M618, M619 3h\n"
        "J4015: M619\n",
        ("M618", "M619"), "ok",
        {"J4014": (["M618", "M619"], [1, 3], None), "J4015": (["M619"], [1], None)},
    ),
    _case(
        "b11_pieces_at_minutes_each",
        "Machines: M620, M621\n"
        "J4016: 40 pcs @ 3 min on M620, then M621 30 min\n",
        ("M620", "M621"), ROUNDED,
        {"J4016": (["M620", "M621"], [2, 1], None)},
    ),
    _case(
        "b11_hour_and_quarter_rounded",
        "Machines: M622, M623\n"
        "J4017: M622 1h15, M623 45min\n",
        ("M622", "M623"), ROUNDED,
        {"J4017": (["M622", "M623"], [2, 1], None)},
    ),
    _case(
        "b11_range_through",
        "Machines: M624\n"
        "J4018 through J4020 run on M624 for 2h each.\n",
        ("M624",), "ok",
        {job: (["M624"], [2], None) for job in ("J4018", "J4019", "J4020")},
    ),
    _case(
        "b11_lookalike_thread_size",
        "Machines: M625, M626\n"
        "J4021: cut the M12 threads on M625 1h, then M626 1h\n",
        ("M625", "M626"), LOOKALIKE,
    ),
    _case(
        "b11_ids_only_in_route_sentences",
        "J4022 starts on M627, 2 hours; it ends on M628, 1 hour.\n",
        ("M627", "M628"), "ok",
        {"J4022": (["M627", "M628"], [2, 1], None)},
    ),
    _case(
        "b11_typo_letter_in_machine_id",
        "Machines: M629, M630.\n"
        "J4023: M629 1h, N630 2h\n",
        ("M629", "M630"), FAILS,
    ),
    _case(
        "b11_alternative_either_or",
        "Machines: M631, M632, M633\n"
        "J4024: M631 2h then either M632 or M633 1h\n",
        ("M631", "M632", "M633"), FAILS,
    ),
    _case(
        "b11_table_and_prose_disagree",
        "Machines: M634, M635\n"
        "Job | Machine | Hours\n"
        "J4025 | M634 | 2\n"
        "J4025 | M635 | 1\n"
        "\n"
        "J4025 takes 3 hours on M634.\n",
        ("M634", "M635"), FAILS,
    ),
    _case(
        "b11_oclock_due_is_ambiguous",
        "Machines: M636\n"
        "J4026: M636 1h, due 5 o'clock\n",
        ("M636",), FAILS,
    ),
    _case(
        "b11_rework_on_an_undeclared_machine",
        "Machines: M637, M638.\n"
        "J4027: M637 2h, M638 1h, back to M639 for 1h rework\n",
        ("M637", "M638"), FAILS,
    ),
    _case(
        "b11_listed_job_without_route",
        "Machines: M640\n"
        "Jobs: J4028, J4029.\n"
        "J4028: M640 2h.\n",
        ("M640",), FAILS,
    ),
    _case(
        "b11_rework_loop_by_names",
        "Machines: grinder (M641), gauge (M642).\n"
        "J4030: grinder 2h, gauge 1h, then back to the grinder for 1h, gauge 1h\n",
        ("M641", "M642"), "ok",
        {"J4030": (["M641", "M642", "M641", "M642"], [2, 1, 1, 1], None)},
    ),
]

#: Batch 12: 20 more, written after the changes for batch 11, measured before any change.
BATCH_12: list[LabelledCase] = [
    _case(
        "b12_markdown_route_cell_with_bracketed_hours",
        "| Job | Route | Due |\n"
        "|---|---|---|\n"
        "| J6001 | M501 (2h) \u2192 M502 (1h) | 16:00 |\n"
        "| J6002 | M502 (3h) | \u2013 |\n",
        ("M501", "M502"), "ok",
        {"J6001": (["M501", "M502"], [2, 1], 16), "J6002": (["M502"], [3], None)},
    ),
    _case(
        "b12_semicolon_header_minutes_due_on_last_row",
        "order;machine;minutes;due\n"
        "J6003;M503;90;\n"
        "J6003;M504;30;13:00\n",
        ("M503", "M504"), ROUNDED,
        {"J6003": (["M503", "M504"], [2, 1], 13)},
    ),
    _case(
        "b12_email_numbered_steps_for_one_job",
        "Hi team,\n"
        "for J6004 please plan:\n"
        "1. M505 - 2 hours\n"
        "2. M506 - 1 hour\n"
        "It has to go out by 11am.\n"
        "Thanks, Aiko\n",
        ("M505", "M506"), "ok",
        {"J6004": (["M505", "M506"], [2, 1], 11)},
    ),
    _case(
        "b12_two_shifts_defined_due_end_of_early",
        "Shifts: early 05:00-13:00, late 13:00-21:00.\n"
        "Machines: M507, M508\n"
        "J6005: M507 2h, M508 1h, due end of early shift\n",
        ("M507", "M508"), "ok",
        {"J6005": (["M507", "M508"], [2, 1], 13)},
    ),
    _case(
        "b12_due_on_a_later_weekday",
        "Plan for Monday.\n"
        "Machines: M509\n"
        "J6006: M509 2h, due Wednesday 12:00\n",
        ("M509",), FAILS,
    ),
    _case(
        "b12_standard_route_skip_by_name",
        "Machines: M510 (saw), M511 (mill), M512 (deburr).\n"
        "Every job: saw 1h, mill 2h, deburr 1h.\n"
        "Today J6007, J6008 and J6009; J6008 doesn't need deburring.\n",
        ("M510", "M511", "M512"), "ok",
        {"J6007": (["M510", "M511", "M512"], [1, 2, 1], None),
         "J6008": (["M510", "M511"], [1, 2], None),
         "J6009": (["M510", "M511", "M512"], [1, 2, 1], None)},
    ),
    _case(
        "b12_default_sentence_then_route_table",
        "Assume 1h for each operation.\n"
        "Job | Route\n"
        "J6010 | M513 > M514\n"
        "J6011 | M514\n",
        ("M513", "M514"), "ok",
        {"J6010": (["M513", "M514"], [1, 1], None), "J6011": (["M514"], [1], None)},
    ),
    _case(
        "b12_setup_and_run_in_brackets",
        "Machines: M515, M516\n"
        "J6012: M515 (setup 15 min, run 45 min), then M516 (setup 30 min, run 1h 30)\n",
        ("M515", "M516"), "ok",
        {"J6012": (["M515", "M516"], [1, 2], None)},
    ),
    _case(
        "b12_parts_times_seconds_exact",
        "Machines: M517\n"
        "J6013: 90 parts x 40 s on M517\n",
        ("M517",), "ok",
        {"J6013": (["M517"], [1], None)},
    ),
    _case(
        "b12_ready_by_2_pm_sharp",
        "Machines: M518, M519\n"
        "J6014: M518 1h, M519 1h, must be ready by 2 pm sharp\n",
        ("M518", "M519"), "ok",
        {"J6014": (["M518", "M519"], [1, 1], 14)},
    ),
    _case(
        "b12_en_dash_range_and_one_due",
        "Machines: M520, M521\n"
        "J6015\u2013J6017: M520 2h, M521 1h\n"
        "J6016 due 10:00\n",
        ("M520", "M521"), "ok",
        {"J6015": (["M520", "M521"], [2, 1], None), "J6016": (["M520", "M521"], [2, 1], 10),
         "J6017": (["M520", "M521"], [2, 1], None)},
    ),
    _case(
        "b12_lookalike_part_code",
        "Machines: M522, M523\n"
        "J6018: M522 2h, M523 1h (bracket part J77-B)\n",
        ("M522", "M523"), LOOKALIKE,
    ),
    _case(
        "b12_ids_only_in_route_table",
        "Job | Steps\n"
        "J6019 | M524 1h, M525 2h\n"
        "J6020 | M525 1h\n",
        ("M524", "M525"), "ok",
        {"J6019": (["M524", "M525"], [1, 2], None), "J6020": (["M525"], [1], None)},
    ),
    _case(
        "b12_undeclared_machine_in_table",
        "Machines: M526, M527\n"
        "Job | Steps\n"
        "J6021 | M526 1h, M528 2h\n",
        ("M526", "M527"), FAILS,
    ),
    _case(
        "b12_typo_job_id_in_due_line",
        "Jobs: J6022, J6023.\n"
        "J6022: M529 1h\n"
        "J6023: M529 2h\n"
        "Due: J6032 15:00\n",
        ("M529",), LOOKALIKE,
    ),
    _case(
        "b12_alternative_with_slash",
        "Machines: M530, M531, M532\n"
        "J6024: M530 1h, M531/M532 2h\n",
        ("M530", "M531", "M532"), FAILS,
    ),
    _case(
        "b12_two_dues_for_one_job",
        "Machines: M533\n"
        "J6025: M533 2h, due 15:00\n"
        "J6026: M533 1h\n"
        "J6025 ships at 17:00.\n",
        ("M533",), FAILS,
    ),
    _case(
        "b12_machine_offline_for_part_of_the_day",
        "Machines: M534, M535\n"
        "M535 is offline from 13:00 to 15:00.\n"
        "J6027: M534 1h, M535 1h\n",
        ("M534", "M535"), FAILS,
    ),
    _case(
        "b12_rework_step_with_arrows",
        "Machines: M536, M537\n"
        "J6028: M536 1h \u2192 M537 1h \u2192 M536 1h (rework) \u2192 M537 1h\n",
        ("M536", "M537"), "ok",
        {"J6028": (["M536", "M537", "M536", "M537"], [1, 1, 1, 1], None)},
    ),
    _case(
        "b12_rework_conditional_in_next_sentence",
        "Machines: M538, M539\n"
        "J6029: M538 2h, M539 1h, M538 1h rework. The rework is only needed if the gauge "
        "fails it.\n",
        ("M538", "M539"), "ok_or_fail",
        {"J6029": (["M538", "M539"], [2, 1], None)},
    ),
]

#: Batch 13: 20 more, written after the changes for batch 12, measured before any change.
BATCH_13: list[LabelledCase] = [
    _case(
        "b13_fixed_width_header_wrapped_over_two_lines",
        "Work     Oper  Work     Std\n"
        "order          centre   hours\n"
        "J7001    10    M1001    2.0\n"
        "J7001    20    M1002    1.0\n",
        ("M1001", "M1002"), "ok",
        {"J7001": (["M1001", "M1002"], [2, 1], None)},
    ),
    _case(
        "b13_chat_correction_of_a_duration",
        "[08:01] Lee: J7002 M1003 2h then M1004 1h\n"
        "[08:03] Lee: correction - J7002 needs 3h on M1003, not 2h\n",
        ("M1003", "M1004"), "ok_or_fail",
        {"J7002": (["M1003", "M1004"], [3, 1], None)},
    ),
    _case(
        "b13_voice_half_an_hour",
        "so the machines are M1005 and M1006 job J7003 runs on M1005 for three hours then "
        "M1006 for half an hour\n",
        ("M1005", "M1006"), ROUNDED,
        {"J7003": (["M1005", "M1006"], [3, 1], None)},
    ),
    _case(
        "b13_semicolon_header_decimal_commas",
        "Job;Machine;Hours\n"
        "J7004;M1007;1,5\n"
        "J7004;M1008;0,5\n",
        ("M1007", "M1008"), ROUNDED,
        {"J7004": (["M1007", "M1008"], [2, 1], None)},
    ),
    _case(
        "b13_machine_names_with_spaces",
        "Machines: Press 2 (M1009), Wash line (M1010)\n"
        "J7005: Press 2 for 2h, then wash line 1h\n",
        ("M1009", "M1010"), "ok",
        {"J7005": (["M1009", "M1010"], [2, 1], None)},
    ),
    _case(
        "b13_ampersand_between_jobs",
        "Machines: M1011\n"
        "J7006 & J7007: M1011 1h\n",
        ("M1011",), "ok",
        {"J7006": (["M1011"], [1], None), "J7007": (["M1011"], [1], None)},
    ),
    _case(
        "b13_before_lunch_with_its_clock",
        "Machines: M1012, M1013\n"
        "J7008: M1012 1h, M1013 2h, before lunch (12:00)\n",
        ("M1012", "M1013"), "ok",
        {"J7008": (["M1012", "M1013"], [1, 2], 12)},
    ),
    _case(
        "b13_till_four_is_ambiguous",
        "Machines: M1014\n"
        "J7009: M1014 2h, needed till 4\n",
        ("M1014",), FAILS,
    ),
    _case(
        "b13_half_three_in_words",
        "Machines: M1015\n"
        "J7010: M1015 1h, must leave us by half three\n",
        ("M1015",), FAILS,
    ),
    _case(
        "b13_lots_of_minutes",
        "Machines: M1016, M1017\n"
        "J7011: 3 lots of 20 min each on M1016, then M1017 1h\n",
        ("M1016", "M1017"), "ok",
        {"J7011": (["M1016", "M1017"], [1, 1], None)},
    ),
    _case(
        "b13_hrs_abbreviations_with_dashes",
        "Machines: M1018, M1019\n"
        "J7012 - M1018 - 2 hrs; M1019 - 1 hr\n",
        ("M1018", "M1019"), "ok",
        {"J7012": (["M1018", "M1019"], [2, 1], None)},
    ),
    _case(
        "b13_two_day_headings",
        "Machines: M1020\n"
        "Thursday:\n"
        "- J7013: M1020 2h\n"
        "Friday:\n"
        "- J7014: M1020 1h\n",
        ("M1020",), FAILS,
    ),
    _case(
        "b13_maintenance_window_on_a_routed_machine",
        "Machines: M1021, M1022\n"
        "M1022 has planned maintenance 10:00-12:00.\n"
        "J7015: M1021 1h, M1022 1h\n",
        ("M1021", "M1022"), FAILS,
    ),
    _case(
        "b13_job_on_hold_without_route",
        "Machines: M1023\n"
        "J7016: M1023 2h\n"
        "J7017 is on hold until the material arrives.\n",
        ("M1023",), FAILS,
    ),
    _case(
        "b13_via_two_machines_with_hours",
        "J7018 goes via M1024 (1h) and M1025 (2h).\n",
        ("M1024", "M1025"), "ok",
        {"J7018": (["M1024", "M1025"], [1, 2], None)},
    ),
    _case(
        "b13_eod_defined_once",
        "EOD = 17:00 here.\n"
        "Machines: M1026\n"
        "J7019: M1026 1h, due EOD\n",
        ("M1026",), "ok",
        {"J7019": (["M1026"], [1], 17)},
    ),
    _case(
        "b13_due_midnight",
        "Machines: M1027\n"
        "J7020: M1027 3h, due midnight\n",
        ("M1027",), "ok",
        {"J7020": (["M1027"], [3], 24)},
    ),
    _case(
        "b13_alternative_in_brackets",
        "Machines: M1028, M1029\n"
        "J7021: M1028 2h (or M1029 if it is busy)\n",
        ("M1028", "M1029"), FAILS,
    ),
    _case(
        "b13_machines_only_then_an_extra",
        "Machines: M1030 and M1031 only.\n"
        "J7022: M1030 1h, M1032 1h\n",
        ("M1030", "M1031"), FAILS,
    ),
    _case(
        "b13_all_jobs_except_one",
        "Machines: M1033, M1034\n"
        "Jobs: J7023, J7024, J7025.\n"
        "All jobs except J7024 go M1033 -> M1034, 1h each. J7024 only needs M1034, 2h.\n",
        ("M1033", "M1034"), "ok",
        {"J7023": (["M1033", "M1034"], [1, 1], None), "J7024": (["M1034"], [2], None),
         "J7025": (["M1033", "M1034"], [1, 1], None)},
    ),
]

BATCHES: tuple[tuple[str, list[LabelledCase]], ...] = (
    ("check set", CHECK_SET),
    ("batch 11", BATCH_11),
    ("batch 12", BATCH_12),
    ("batch 13", BATCH_13),
)

ALL_CASES = [case for _, cases in BATCHES for case in cases]

#: Cases the reader still misses: each must fail with a code, never be read wrongly.
#: The check set, measured once before any change for it: 32 correct, 8 coded failures, 0
#: silent wrong; after the changes for it: 40 correct. Batch 11, written after those changes
#: and measured before any change for it: 17 correct, 3 coded failures, 0 silent wrong; after
#: the changes for it: 20 correct. Batch 12, written after those, measured before any change
#: for it: 16 correct, 4 coded failures, 0 silent wrong; after the changes for it: 20 correct.
#: Batch 13, written after those, measured before any change for it: 19 correct, 1 coded
#: failure, 0 silent wrong; after the change for it: 20 correct.
KNOWN_MISSES: frozenset[str] = frozenset()


@pytest.mark.parametrize("case", ALL_CASES, ids=[case.name for case in ALL_CASES])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    check_case(case, KNOWN_MISSES)


def test_rounded_cases_record_the_rounding() -> None:
    check_rounding(ALL_CASES, KNOWN_MISSES)


def test_the_check_set_has_forty_cases_and_distinct_names() -> None:
    assert len(CHECK_SET) == 40
    assert len(BATCH_11) == len(BATCH_12) == len(BATCH_13) == 20
    assert len({case.name for case in ALL_CASES}) == len(ALL_CASES)


def _jobs(text: str) -> list[tuple[str, list[tuple[str, float]], int | None]]:
    config = OnboardingAgent().run_detailed(text).config
    return [(job.id, [(s.machine_id, s.duration_hours) for s in job.steps], job.due_time_hour)
            for job in config.jobs]


def test_a_last_column_of_clock_times_in_header_less_rows_is_the_due() -> None:
    assert _jobs("J51\tM51 2h\t15:00\nJ52\tM51 1h\t\n") == [
        ("J51", [("M51", 2)], 15), ("J52", [("M51", 1)], None)]
    assert _jobs("J51;M51 1h;M52 2h;3pm\nJ52;M52 1h\n") == [
        ("J51", [("M51", 1), ("M52", 2)], 15), ("J52", [("M52", 1)], None)]
    # a time of day beside a cell of another kind in the same column is no due column
    fails("J51\tM51 2h\t15:00\nJ52\tM51 1h\trush\n")
    fails("J51 | M51 2h | 07:00 | M52 1h\nJ52 | M52 1h | | \n")  # a time between steps


def test_times_under_a_heading_or_beside_a_note_of_start_times_are_no_dues() -> None:
    rows = "J51\tM51 2h\t07:00\nJ52\tM52 1h\t09:00\n"
    assert "cannot read '07:00'" in fails("Machines: M51, M52\nStart times:\n" + rows)
    assert "cannot read '07:00'" in fails(
        "Machines: M51, M52\n" + rows + "Last column = start time.\n")
    assert _jobs("Machines: M51, M52\nShip by:\n" + rows)[0] == ("J51", [("M51", 2)], 7)


def test_a_sentence_that_makes_a_step_conditional_is_never_skipped_as_prose() -> None:
    route = "Machines: M51, M52\nJ51: M51 2h, M52 1h, M51 1h rework.\n"
    for condition in ("That last step is only needed when the gauge rejects it.",
                      "Skip the last step if the parts pass.", "Only if the parts fail."):
        assert "a condition on the work" in fails(route + condition + "\n")
    assert _jobs(route + "Give me a call if anything looks odd.\n") == [
        ("J51", [("M51", 2), ("M52", 1), ("M51", 1)], None)]


def test_two_decimals_under_an_hours_column_are_hours_not_a_clock() -> None:
    assert _jobs("Job  Machine  Std hrs\nJ51   M51       1.50\nJ52   M51       2.00\n") == [
        ("J51", [("M51", 2)], None), ("J52", [("M51", 2)], None)]


def test_a_fixed_width_row_lacks_only_the_cells_after_its_text() -> None:
    header = "Job    Machine   Hours   Due\n"
    assert _jobs(header + "J51    M51       2       14:00\nJ52    M51       1\n") == [
        ("J51", [("M51", 2)], 14), ("J52", [("M51", 1)], None)]
    # a time of day under the hours column: unread, never a due
    assert "'14:00' is not a list of durations" in fails(
        header + "J51    M51       2       14:00\nJ52    M51       14:00\n")
    # a row whose text reaches the last column keeps its cells as they are: unread
    assert "cells under a header" in fails(
        header + "J51    M51       2       14:00\nJ52    M51               14:00\n")


def test_a_document_title_above_the_jobs_is_no_statement() -> None:
    assert _jobs("Open orders report\nJ51: M51 2h\n") == [("J51", [("M51", 2)], None)]
    assert "names no machine" in fails("Jobs skip the list\nJ51: M51 2h\n")


def test_work_still_to_do_after_a_job_id_is_its_route() -> None:
    assert _jobs("Machines: M51, M52\nJ51 still to do: M51 2h, M52 1h\n") == [
        ("J51", [("M51", 2), ("M52", 1)], None)]
    fails("Machines: M51, M52\nJ51 done: M51 2h, M52 1h\n")


def test_an_added_step_may_stand_after_or_before_a_machine_of_the_route() -> None:
    base = "Machines: M51, M52, M53\nJ51-J52: M51 2h, M53 1h\n"
    assert _jobs(base + "J52 additionally goes to M52 for 1h after M51.\n")[1] == (
        "J52", [("M51", 2), ("M52", 1), ("M53", 1)], None)
    assert _jobs(base + "J52 also needs M52 1h before M51.\n")[1] == (
        "J52", [("M52", 1), ("M51", 2), ("M53", 1)], None)
    assert "visits M54 0 times" in fails(
        "Machines: M51, M52, M53, M54\nJ51-J52: M51 2h, M53 1h\nJ52 also needs M52 1h after M54.\n")


def test_a_rework_step_is_read_only_when_nothing_makes_it_conditional() -> None:
    assert _jobs(
            "Machines: M51, M52\nJ51: M51 2h, M52 1h, back to M51 for 1h rework, M52 1h\n") == [
        ("J51", [("M51", 2), ("M52", 1), ("M51", 1), ("M52", 1)], None)]
    fails("Machines: M51, M52\nJ51: M51 2h, M52 1h, M51 1h rework if it fails, M52 1h\n")
    fails("Machines: M51, M52\nJ51: M51 2h, M52 1h, M51 1h (rework when needed)\n")


def test_the_same_but_without_a_machine_copies_the_route_before() -> None:
    base = ("Machines: cutter (M51), brake (M52), paint booth (M53).\n"
            "Standard flow: cutter 1h, brake 2h, paint booth 1h.\n"
            "J51 and J52 take the standard flow. ")
    assert _jobs(base + "J53 is the same but without painting.\n")[2] == (
        "J53", [("M51", 1), ("M52", 2)], None)
    assert _jobs(base + "J53 takes the standard flow but without the paint booth.\n")[2] == (
        "J53", [("M51", 1), ("M52", 2)], None)
    assert "which differ" in fails(base + "J53 is the same but skips M53.\nJ51 skips M52.\n")
    fails("Machines: M51, M52\nJ51: M51 1h, due 3pm. J52 is the same.\n")  # route or due?


def test_comma_rows_are_rows_only_without_a_space_after_the_commas() -> None:
    assert _jobs("Machines: M55, M56\nJ55,M55 1h,M56 2h,11:00\nJ56,M56 2h,,\n") == [
        ("J55", [("M55", 1), ("M56", 2)], 11), ("J56", [("M56", 2)], None)]
    fails("Machines: M55, M56\nJ55, M55 1h, M56 2h, 11:00\n")  # prose: no due column
    fails("Machines: M55, M56\nJ55,M55,2\n")  # a bare number has no unit


def test_an_at_sign_between_a_quantity_and_a_time_is_a_rate() -> None:
    assert _jobs("Machines: M57, M58\nJ57: 40 pcs @ 3 min on M57, then M58 1h\n") == [
        ("J57", [("M57", 2), ("M58", 1)], None)]
    assert "without a time per piece" in fails(
        "Machines: M57, M58\nJ57: 40 pcs at 3 min on M57, then M58 1h\n")  # each, or all?


def test_a_replacing_machine_may_give_its_time_in_parentheses() -> None:
    base = "Machines: M61, M62, M63, M64\nAll jobs: M61 -> M62 -> M63, 1h each.\nJobs: J61, J62.\n"
    assert _jobs(base + "J62 uses M64 instead of M62 (2h).\n")[1] == (
        "J62", [("M61", 1), ("M64", 2), ("M63", 1)], None)
    fails(base + "J62 uses M64 instead of M62 (2h or 3h).\n")


def test_a_heading_that_leads_to_one_job_gives_its_list_and_the_next_it() -> None:
    steps = "1. M51 - 2 hours\n2. M52 - 1 hour\n"
    for heading in ("Plan for J51:", "For J51 please plan:", "Hello all,\nfor J51 please plan:"):
        assert _jobs(f"{heading}\n{steps}It ships at 11am.\n") == [
            ("J51", [("M51", 2), ("M52", 1)], 11)]
    # 'it' after a list of two jobs names no one job
    assert "'it' does not refer" in fails(
        "J51 and J52:\n- M51 2h\n- M52 1h\nIt ships at 3pm.\n")
    fails("Plan for J51 soon:\n" + steps)  # a heading with other words: not read


def test_today_before_a_job_list_is_the_plan_day() -> None:
    assert _jobs("Machines: M51, M52\nToday J51 and J52; J52 does not need M52.\n"
                 "All jobs: M51 1h, M52 1h.\n") == [
        ("J51", [("M51", 1), ("M52", 1)], None), ("J52", [("M51", 1)], None)]
    fails("Machines: M51\nTomorrow J51 and J52.\nAll jobs: M51 1h.\n")  # another day


def test_one_pipe_makes_two_columns_only_under_a_routing_header() -> None:
    assert _jobs("Job | Route\nJ51 | M51 2h > M52 1h\nJ52 | M52 1h\n") == [
        ("J51", [("M51", 2), ("M52", 1)], None), ("J52", [("M52", 1)], None)]
    assert "two separate routes" in fails("Machines: M51, M52\nJ51: M51 1h | M52 2h\n")


def test_lots_with_a_time_each_run_one_after_another() -> None:
    assert _jobs("Machines: M51, M52\nJ51: 3 lots of 20 min each on M51, then M52 1h\n") == [
        ("J51", [("M51", 1), ("M52", 1)], None)]
    assert "without a time per piece" in fails("Machines: M51\nJ51: 3 lots on M51\n")


def main() -> None:
    """Print per batch the totals (correct / safe fail / silent wrong) and the cases not
    correct."""
    print_totals(BATCHES)


if __name__ == "__main__":
    main()
