"""The offline reader on a fourth check set of 40 staff phrasings (#24).

Written in one sitting, all 40 cases before any was run, by kinds of writer none of the earlier
sets has: a quality engineer's non-conformance note that changes one route, ERP work-order
printouts with a header block, operation lines and totals, planners whose first language is
German or Spanish writing English with their habits (decimal commas ``1,5 h``, ``14.00 Uhr``,
``13:00h``, dd.mm.yyyy dates), chat messages with timestamps and corrections ("sorry J41 is 90
not 45"), ASCII plan boards and bar charts, capacity sheets that list each machine's jobs in
order, a customer's purchase order with need-by times, durations in seconds, shifts, "half an
hour" and pieces times a cycle time, dues as "EOD (17:00)", "before lunch (12:00)", ``by 1600``
and "COB", and ids with leading zeros or in lower case. Fourteen must fail with a code.

Conventions of the earlier sets hold: fractional hours are rounded up with a recorded repair
(``ok_rounded``). The seed's decisions used here: its explicit ids are an upper-case ``M`` or
``J`` followed by a digit, so ``j5`` is no id, ``M2`` is another id than ``M02``, and an id
written with its zero (``M01``, ``J001``) is kept as written; a step through a machine the text
never declared fails (the seed's case 4); a due is an hour of the plan day, so a due that only
names another day, or a word for an hour the text never gives ("COB" with no closing time),
cannot be read. A job seen on two machines without anything saying which comes first has no
route, and two statements about one step or one due that disagree, with no word saying which
is the newer, are a contradiction.

``python -m tests.factory.test_staff_phrasings_f`` prints the totals and every case not correct.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.grading import LabelledCase
from tests.factory.labelled import labelled_case
from tests.factory.phrasing_sets import ROUNDED, check_case, check_rounding, print_totals

FAILS = "INVALID_STRUCTURE"
NO_IDS = "NO_IDS_OR_COVERAGE_MISMATCH"

_case = labelled_case

CHECK_SET_4: list[LabelledCase] = [
    # ------------------------------------------------------------ quality: non-conformance notes
    # why: the note inserts one step into one job's route, right after the machine it names.
    _case(
        "f_ncr_inserts_a_deburr_step_after_the_drill",
        "NCR-2231 (Quality)\n"
        "Finding: burrs left on the bores after drilling.\n"
        "Containment: from now on J152 gets an extra deburr pass on M154 (1h) right after "
        "M152.\n"
        "\n"
        "Current routing\n"
        "Machines: M151 saw, M152 drill, M153 paint booth, M154 deburr bench\n"
        "J151: M151 1h, M152 2h, M153 1h\n"
        "J152: M151 2h, M152 1h, M153 1h\n",
        ("M151", "M152", "M153", "M154"), "ok",
        {"J151": (["M151", "M152", "M153"], [1, 2, 1], None),
         "J152": (["M151", "M152", "M154", "M153"], [2, 1, 1, 1], None)},
    ),
    # why: one job's step moves to the spare machine; its duration and the other job stay.
    _case(
        "f_ncr_moves_one_jobs_step_to_the_spare_machine",
        "Machines: M161 (saw), M163 (grinder), M166 (spare grinder)\n"
        "J161: M161 1h, M163 2h\n"
        "J162: M161 1h, M163 1h\n"
        "\n"
        "Quality hold, NCR-0390: M163 grinds J161 out of tolerance. Until further notice J161 "
        "goes to M166 instead of M163.\n",
        ("M161", "M163", "M166"), "ok",
        {"J161": (["M161", "M166"], [1, 2], None), "J162": (["M161", "M163"], [1, 1], None)},
    ),
    # why: a step that "may be needed" pending a decision is neither in the route nor out of it.
    _case(
        "f_fail_ncr_rework_step_pending_disposition",
        "Machines: M171, M172, M173\n"
        "J171: M171 2h, M172 1h\n"
        "NCR-0457 open on J171: a rework pass on M173 may be needed, disposition pending.\n",
        ("M171", "M172", "M173"), FAILS,
    ),
    # why: the note reroutes a step to a machine the text never declared (the seed's case 4).
    _case(
        "f_fail_ncr_reroutes_to_an_undeclared_machine",
        "Machines: M106, M107\n"
        "J103: M106 1h, M107 1h\n"
        "NCR-118: parts from M107 fail the flatness check; reroute the M107 step of J103 to "
        "M108.\n",
        ("M106", "M107"), FAILS,
    ),
    # ------------------------------------------------------------ ERP work-order printouts
    # why: a work order names one job; its lines are the steps, its header due is the job's due
    # and the total agrees with the lines.
    _case(
        "f_erp_work_order_header_lines_and_total",
        "WORK ORDER                          Page 1/1\n"
        "WO no.: J40          Customer: Holmgren Pumps\n"
        "Item: bracket 40x40  Qty: 200\n"
        "Released: 26.11.2026\n"
        "Due: 15:00\n"
        "\n"
        "Line  Work ctr  Operation      Std time\n"
        "0010  M11       cut            2.0 h\n"
        "0020  M12       bend           1.0 h\n"
        "0030  M13       powder coat    3.0 h\n"
        "---------------------------------------\n"
        "Total std time                      6.0 h\n",
        ("M11", "M12", "M13"), "ok",
        {"J40": (["M11", "M12", "M13"], [2, 1, 3], 15)},
    ),
    # why: setup + run minutes per operation, two orders in one print; the print's own time
    # stamp is no due.
    _case(
        "f_erp_print_setup_and_run_minutes_two_orders",
        "ERP print 26.11.2026 06:12   user PLAN2\n"
        "Order  Op  Work ctr  Setup min  Run min\n"
        "J121   10  M121      15         45\n"
        "J121   20  M122      30         90\n"
        "J122   10  M122      20         40\n",
        ("M121", "M122"), "ok",
        {"J121": (["M121", "M122"], [1, 2], None), "J122": (["M122"], [1], None)},
    ),
    # why: a time per piece times the order's quantity is the step's duration (60 x 2 min).
    _case(
        "f_erp_work_order_time_per_piece_times_quantity",
        "WORK ORDER J131   Qty 60 pcs\n"
        "Op   Machine   Time/pc (min)\n"
        "10   M131      2\n"
        "20   M132      1\n",
        ("M131", "M132"), "ok",
        {"J131": (["M131", "M132"], [2, 1], None)},
    ),
    # why: the work order's due and the customer's need-by for the same job disagree, and
    # nothing says which one holds.
    _case(
        "f_fail_work_order_due_and_po_need_by_disagree",
        "WORK ORDER J104\n"
        "Due: 14:00\n"
        "Line  Work ctr  Std time\n"
        "10    M109      1.0 h\n"
        "\n"
        "Customer PO 88120: J104 needed by 16:00\n",
        ("M109",), FAILS,
    ),
    # ------------------------------------------------------------ German and Spanish habits
    # why: a decimal comma (1,5 h is an hour and a half) and "until 14.00 Uhr" for "by 14:00".
    _case(
        "f_german_decimal_comma_and_uhr_due",
        "Plan for 27.11.2026 (Thursday)\n"
        "Machines: M21 (Drehbank), M22 (Fraese)\n"
        "J21: M21 1,5 h, then M22 2 h, finished until 14.00 Uhr\n",
        ("M21", "M22"), ROUNDED,
        {"J21": (["M21", "M22"], [2, 2], 14)},
    ),
    # why: steps separated by semicolons, a half hour with a decimal comma, a dd.mm.yyyy date
    # that is no time and a delivery hour in "Uhr".
    _case(
        "f_german_semicolon_steps_and_delivery_uhr",
        "Datum: 26.11.2026\n"
        "Machines: M23 (saw), M24 (boring mill)\n"
        "J23: M23 0,5 h; M24 3 h; delivery 16.00 Uhr\n",
        ("M23", "M24"), ROUNDED,
        {"J23": (["M23", "M24"], [1, 3], 16)},
    ),
    # why: "during 2 hours", "after to", "before the 13:00h": a Spanish speaker's English.
    _case(
        "f_spanish_during_hours_and_before_the_hour",
        "Hello, the planning for today.\n"
        "The machines are M31 (torno) and M32 (fresadora).\n"
        "The job J31 goes first to M31 during 2 hours and after to M32 during 1 hour, and must "
        "be ready before the 13:00h.\n"
        "The job J32 only M32, 3 hours.\n",
        ("M31", "M32"), "ok",
        {"J31": (["M31", "M32"], [2, 1], 13), "J32": (["M32"], [3], None)},
    ),
    # why: minutes and a decimal comma hour in one route, a 24-hour due with a trailing h.
    _case(
        "f_spanish_decimal_comma_and_delivery_hour",
        "Machines: M33, M34\n"
        "J33: M33 45 min, M34 1,25 h; delivery 18:00h\n",
        ("M33", "M34"), ROUNDED,
        {"J33": (["M33", "M34"], [1, 2], 18)},
    ),
    # ------------------------------------------------------------ chat messages
    # why: the message timestamps are no dues; "sorry J41 is 90 not 45" corrects the 45 min
    # step (90 min, rounded up to 2 h).
    _case(
        "f_chat_timestamps_and_a_sorry_correction",
        "[07:02] Ana: machines today M41 M42\n"
        "[07:03] Ana: J41 M41 45 min then M42 2h\n"
        "[07:03] Ana: J42 M42 1h\n"
        "[07:05] Ana: sorry J41 is 90 not 45\n",
        ("M41", "M42"), ROUNDED,
        {"J41": (["M41", "M42"], [2, 2], None), "J42": (["M42"], [1], None)},
    ),
    # why: a later line moves the due and says which value it replaces.
    _case(
        "f_sms_due_moved_with_not",
        "M43, M44 running\n"
        "J43 M43 2h M44 1h due 3pm\n"
        "J44 M44 2h\n"
        "J43 due 5pm not 3pm, customer moved it\n",
        ("M43", "M44"), "ok",
        {"J43": (["M43", "M44"], [2, 1], 17), "J44": (["M44"], [2], None)},
    ),
    # why: a later message adds a job ("+J142 ... pls").
    _case(
        "f_chat_job_added_in_a_later_message",
        "[06:50] Lea: today M141 and M142\n"
        "[06:51] Lea: J141 M141 1h > M142 2h\n"
        "[06:58] Lea: +J142 M142 1h pls\n",
        ("M141", "M142"), "ok",
        {"J141": (["M141", "M142"], [1, 2], None), "J142": (["M142"], [1], None)},
    ),
    # why: another source gives the same step another duration and nothing says which holds.
    _case(
        "f_fail_step_time_contradicted_by_another_sheet",
        "Machines: M45, M46\n"
        "J45: M45 2h, M46 1h\n"
        "The router sheet says J45 on M45 is 3h.\n",
        ("M45", "M46"), FAILS,
    ),
    # ------------------------------------------------------------ ASCII charts
    # why: a plan board of one-hour cells: a job's cells on a machine are its step's hours and
    # the steps follow in time.
    _case(
        "f_ascii_plan_board_hour_cells",
        "Plan board, one cell = 1 hour, from 06:00\n"
        "       | 06  | 07  | 08  | 09  | 10  | 11  |\n"
        "M51    | J51 | J51 | J52 |     |     |     |\n"
        "M52    |     |     | J51 | J51 | J52 | J52 |\n",
        ("M51", "M52"), "ok",
        {"J51": (["M51", "M52"], [2, 2], None), "J52": (["M51", "M52"], [1, 2], None)},
    ),
    # why: bars of '#' at 30 min each, indented by their start: 6 marks are 3 h, 3 marks 1.5 h.
    _case(
        "f_ascii_bar_chart_half_hour_marks",
        "Gantt (# = 30 min, from 07:00)\n"
        "J54 M55 ######\n"
        "J54 M56       ##\n"
        "J55 M56         ###\n",
        ("M55", "M56"), ROUNDED,
        {"J54": (["M55", "M56"], [3, 1], None), "J55": (["M56"], [2], None)},
    ),
    # ------------------------------------------------------------ per-machine lists
    # why: each machine lists its jobs in order; every job visits one machine only.
    _case(
        "f_per_machine_lists_each_job_on_one_machine",
        "M61 does J61 (2h) then J63 (1h)\n"
        "M62 does J62 (3h)\n",
        ("M61", "M62"), "ok",
        {"J61": (["M61"], [2], None), "J63": (["M61"], [1], None),
         "J62": (["M62"], [3], None)},
    ),
    # why: the flow line orders the machines; the free capacity in brackets is no duration.
    _case(
        "f_capacity_sheet_with_a_flow_line",
        "Capacity sheet - week 48\n"
        "Flow: every job goes M63 first, then M64.\n"
        "M63 (16 h free): J64 2h, J65 1h\n"
        "M64 (16 h free): J64 1h, J65 3h\n",
        ("M63", "M64"), "ok",
        {"J64": (["M63", "M64"], [2, 1], None), "J65": (["M63", "M64"], [1, 3], None)},
    ),
    # why: both jobs visit both machines and nothing says in which order a job goes.
    _case(
        "f_fail_per_machine_lists_route_order_unknown",
        "M65 does J66 (2h) then J67 (1h)\n"
        "M66 does J67 (2h) then J66 (1h)\n",
        ("M65", "M66"), FAILS,
    ),
    # ------------------------------------------------------------ a customer's purchase order
    # why: the need-by column gives each job's due; the routing sentence gives the steps.
    _case(
        "f_customer_po_need_by_times_and_our_routing",
        "PURCHASE ORDER 4500-7781   Delivery date 27.11.2026\n"
        "Buyer: Vidal Hydraulics\n"
        "Pos  Part          Qty   Need by\n"
        "1    J71 shaft     50    10:00\n"
        "2    J72 flange    20    16:00\n"
        "\n"
        "Routing (ours): J71 M71 2h, M72 1h. J72 M72 3h.\n",
        ("M71", "M72"), "ok",
        {"J71": (["M71", "M72"], [2, 1], 10), "J72": (["M72"], [3], 16)},
    ),
    # why: a quantity with no cycle time gives the step no duration.
    _case(
        "f_fail_quantity_without_a_cycle_time",
        "Machines: M73, M74\n"
        "J73: 500 pcs on M73, then M74 1h\n",
        ("M73", "M74"), FAILS,
    ),
    # ------------------------------------------------------------ durations
    # why: 120 pieces at 45 s each are 5400 s, an hour and a half, rounded up to 2 h.
    _case(
        "f_pieces_at_seconds_each",
        "Machines: M81, M82\n"
        "J81: 120 pcs on M81 at 45 s each, then M82 1h\n",
        ("M81", "M82"), ROUNDED,
        {"J81": (["M81", "M82"], [2, 1], None)},
    ),
    # why: whole hours written in seconds.
    _case(
        "f_durations_in_seconds",
        "J82: M83 7200 s, M84 3600 sec\n",
        ("M83", "M84"), "ok",
        {"J82": (["M83", "M84"], [2, 1], None)},
    ),
    # why: the text defines a shift as 8 h: 2 shifts are 16 h, half a shift 4 h.
    _case(
        "f_shifts_with_a_stated_length",
        "Shifts are 8 h long.\n"
        "J83: M85 for 2 shifts, then M86 for half a shift\n",
        ("M85", "M86"), "ok",
        {"J83": (["M85", "M86"], [16, 4], None)},
    ),
    # why: "2 shifts" with no shift length in the text has no number of hours.
    _case(
        "f_fail_shifts_without_a_length",
        "Machines: M87, M88\n"
        "J84: M87 2 shifts, then M88 1h\n",
        ("M87", "M88"), FAILS,
    ),
    # why: "half an hour" and "an hour and a half" in words, rounded up.
    _case(
        "f_half_an_hour_and_an_hour_and_a_half",
        "J85 goes to M89 for half an hour, then to M90 for an hour and a half.\n",
        ("M89", "M90"), ROUNDED,
        {"J85": (["M89", "M90"], [1, 2], None)},
    ),
    # why: a lot of 30 pieces at 4 and 2 minutes a piece: 120 and 60 minutes.
    _case(
        "f_lot_size_times_minutes_per_piece",
        "J86, lot of 30 pieces: M91 4 min/pc, then M92 2 min/pc\n",
        ("M91", "M92"), "ok",
        {"J86": (["M91", "M92"], [2, 1], None)},
    ),
    # why: a bare number in a duration's place has no unit: two hours or two minutes?
    _case(
        "f_fail_durations_without_a_unit",
        "Machines: M111, M112\n"
        "J111: M111 2, then M112 3\n",
        ("M111", "M112"), FAILS,
    ),
    # ------------------------------------------------------------ dues in office words
    # why: EOD and "before lunch" with their hour in brackets.
    _case(
        "f_due_eod_and_before_lunch_with_hours",
        "Machines: M93, M94\n"
        "J91: M93 2h, needed EOD (17:00)\n"
        "J92: M93 1h, M94 1h, done before lunch (12:00)\n",
        ("M93", "M94"), "ok",
        {"J91": (["M93"], [2], 17), "J92": (["M93", "M94"], [1, 1], 12)},
    ),
    # why: four-digit 24-hour times after "by".
    _case(
        "f_due_four_digit_24_hour_times",
        "Machines: M95\n"
        "J93 M95 3h by 1600\n"
        "J94 M95 1h by 0900\n",
        ("M95",), "ok",
        {"J93": (["M95"], [3], 16), "J94": (["M95"], [1], 9)},
    ),
    # why: the text says when business closes, so COB is 16:00.
    _case(
        "f_due_cob_with_the_closing_time_stated",
        "We close at 16:00.\n"
        "Machines: M96\n"
        "J95: M96 2h, due COB\n",
        ("M96",), "ok",
        {"J95": (["M96"], [2], 16)},
    ),
    # why: COB with no closing time anywhere in the text names no hour.
    _case(
        "f_fail_due_cob_without_a_closing_time",
        "Machines: M97\n"
        "J96: M97 2h, due COB\n",
        ("M97",), FAILS,
    ),
    # why: a due on another day than the plan's is no hour of the plan day.
    _case(
        "f_fail_due_tomorrow_morning",
        "Machines: M98\n"
        "J97: M98 1h, the customer wants it tomorrow morning\n",
        ("M98",), FAILS,
    ),
    # ------------------------------------------------------------ ids as written
    # why: ids with leading zeros are ids as written (M01, J001).
    _case(
        "f_leading_zero_ids_kept_as_written",
        "Machines: M01, M02, M10\n"
        "J001: M01 1h, M10 2h\n"
        "J002: M02 3h\n",
        ("M01", "M02", "M10"), "ok",
        {"J001": (["M01", "M10"], [1, 2], None), "J002": (["M02"], [3], None)},
    ),
    # why: M2 is not M02: a route through a machine the list does not declare.
    _case(
        "f_fail_machine_written_without_its_leading_zero",
        "Machines: M02 (saw), M03 (drill)\n"
        "J003: M2 1h, M03 1h\n",
        ("M02", "M03"), FAILS,
    ),
    # why: lower-case j5 is no id under the seed's regex: machine ids but no job id.
    _case(
        "f_fail_lower_case_job_ids",
        "Machines: M05, M06\n"
        "j5: M05 2h, M06 1h\n"
        "j6: M06 1h\n",
        ("M05", "M06"), NO_IDS,
    ),
    # ------------------------------------------------------------ other doubts
    # why: "whichever of M102 and M103 is free" leaves the machine open.
    _case(
        "f_fail_whichever_machine_is_free",
        "Machines: M101, M102, M103\n"
        "J101: M101 2h, then whichever of M102 and M103 is free (1h)\n",
        ("M101", "M102", "M103"), FAILS,
    ),
    # why: the name and the id of a step point at two different machines.
    _case(
        "f_fail_name_and_id_of_a_step_disagree",
        "Machines: M104 (lathe), M105 (mill)\n"
        "J102: lathe M105 2h, then mill M104 1h\n",
        ("M104", "M105"), FAILS,
    ),
]

#: Cases the reader still misses: each must fail with a code, never be read wrongly.
#: Measured once, before any change for this set: 19 correct, 21 coded failures, 0 silent
#: wrong (the 14 that must fail all failed with their code; 21 of the 26 readable ones
#: were not read). After the due families (delivery, 'until', '18:00h', 'by 1600', 'EOD (17:00)',
#: a closing time for COB, 'due 5pm not 3pm'): 26 correct, 14 coded failures, 0 silent wrong.
#: After '+J1' lines, lot sizes, shift lengths and machines' own job lists: 31 correct; after
#: a learner's connectives ('during 2 hours', 'after to') and drawn boards and bars: 34; after
#: a correction that names the step by the value it replaces ('sorry J41 is 90 not 45'): 35;
#: after a step added to a job's own route ('from now on J152 gets an extra ... pass on M154
#: (1h) right after M152'): 36 correct, 4 coded failures, 0 silent wrong; after a quantity
#: in a job's heading over a table of times per piece: 37 correct, 3 coded failures; after a
#: work-order printout (header block of fields, operation lines, checked total): 38 correct.
KNOWN_MISSES: frozenset[str] = frozenset({
    "f_ncr_moves_one_jobs_step_to_the_spare_machine",
    "f_customer_po_need_by_times_and_our_routing",
})


@pytest.mark.parametrize("case", CHECK_SET_4, ids=[case.name for case in CHECK_SET_4])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    check_case(case, KNOWN_MISSES)


def test_rounded_cases_record_the_rounding() -> None:
    check_rounding(CHECK_SET_4, KNOWN_MISSES)


def test_the_check_set_has_forty_cases_and_distinct_names() -> None:
    assert len(CHECK_SET_4) == 40
    assert len({case.name for case in CHECK_SET_4}) == len(CHECK_SET_4)
    assert KNOWN_MISSES <= {case.name for case in CHECK_SET_4}


def main() -> None:
    """Print the totals (correct / safe fail / silent wrong) and the cases not correct."""
    print_totals((("check set 4", CHECK_SET_4),))


if __name__ == "__main__":
    main()
