"""The offline reader on a check set of 40 staff phrasings, then batch 11 (#24).

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

from collections import Counter

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import LabelledCase, Verdict
from tests.factory.labelled import labelled_case
from tests.factory.test_staff_phrasings import _grade

FAILS = "INVALID_STRUCTURE"
LOOKALIKE = "COVERAGE_MISMATCH_OR_INVALID_STRUCTURE"
ROUNDED = "ok_rounded"

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

BATCHES: tuple[tuple[str, list[LabelledCase]], ...] = (
    ("check set", CHECK_SET),
)

ALL_CASES = [case for _, cases in BATCHES for case in cases]

#: Cases the reader still misses: each must fail with a code, never be read wrongly.
#: Measured once, before any change for the check set: 32 correct, 8 coded failures (these),
#: 0 silent wrong.
KNOWN_MISSES: frozenset[str] = frozenset({
    "c_tab_rows_no_header_hours_in_cells",
    "c_semicolon_rows_without_header",
    "c_mes_decimal_hours_rounded",
    "c_erp_quantity_and_minutes_per_piece",
    "c_shift_note_end_of_shift_defined",
    "c_standard_flow_by_names",
    "c_en_dash_range_with_one_extra_step",
    "c_rework_loop_back_to_first",
})


@pytest.mark.parametrize("case", ALL_CASES, ids=[case.name for case in ALL_CASES])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    result = _grade(case)
    if case.name in KNOWN_MISSES:
        assert result.verdict is Verdict.SAFE_FAIL, result  # a miss, never a wrong config
        return
    assert result.verdict is Verdict.CORRECT, result


def test_rounded_cases_record_the_rounding() -> None:
    for case in [c for c in ALL_CASES if c.expect == ROUNDED and c.name not in KNOWN_MISSES]:
        repairs = OnboardingAgent().run_detailed(case.text).repairs
        assert any("rounded up" in repair for repair in repairs), case.name


def test_the_check_set_has_forty_cases_and_distinct_names() -> None:
    assert len(CHECK_SET) == 40
    assert len({case.name for case in ALL_CASES}) == len(ALL_CASES)


def main() -> None:
    """Print per batch the totals (correct / safe fail / silent wrong) and the cases not
    correct."""
    for label, cases in BATCHES:
        totals: Counter[str] = Counter()
        for case in cases:
            result = _grade(case)
            totals[result.verdict.value] += 1
            if result.verdict is not Verdict.CORRECT:
                print(f"{result.verdict.value:13} {case.name}: {result.got}: {result.detail}")
        print(label, dict(totals), f"of {len(cases)}")


if __name__ == "__main__":
    main()
