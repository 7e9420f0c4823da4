"""The offline reader on batches 7-9 of staff phrasings, in families the earlier sets cover thinly.

Written batch by batch before the reader was changed for them (#24): invented plants, machines
and wording. Families: a plant manager's plan for one day of a week, maintenance-aware notes
("M3 is down Tuesday"), jobs listed under their customer, orders with line items, routes given
as one machine per column ("Op1 | Op2 | Op3"), text mixing two languages' conventions (decimal
commas, a 24-hour clock written ``14.00`` or ``16h00``), voice-transcribed text (no
punctuation, numbers as words), a paragraph per job and ids with letters after the digits
(``J10A``).

Conventions of the earlier sets hold (``tests/factory/test_staff_phrasings.py``): a due on
another day than the plan day, a due at a half hour told in words ("half past three") and a
constraint the configuration cannot carry (a machine unavailable for part of the plan day) are
coded failures; a four-digit time (``1500``) is a 24-hour clock; fractional hours
are rounded up with a recorded repair (``ok_rounded``).

``python -m tests.factory.test_staff_phrasings_b`` prints the totals per batch and every case
not correct.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import LabelledCase
from repro_assets.factory.reading.days import days_apart
from tests.factory.labelled import labelled_case
from tests.factory.phrasing_sets import (
    ROUNDED,
    check_case,
    check_rounding,
    fails,
    print_totals,
)

FAILS = "INVALID_STRUCTURE"

_case = labelled_case

SEVENTH_CASES: list[LabelledCase] = [
    _case(
        "weekly_plan_one_day_heading",
        "Week 48 - plan for Wednesday\n"
        "Machines: M701 (lathe), M702 (mill)\n"
        "J2001: M701 2h, M702 1h, due 15:00\n"
        "J2002: M702 3h\n",
        ("M701", "M702"), "ok",
        {"J2001": (["M701", "M702"], [2, 1], 15), "J2002": (["M702"], [3], None)},
    ),
    _case(
        "weekly_plan_jobs_spread_over_days",
        "Machines: M701, M702\n"
        "Mon: J2003 M701 2h\n"
        "Tue: J2004 M702 1h\n",
        ("M701", "M702"), FAILS,
    ),
    _case(
        "maintenance_on_an_unused_machine",
        "Machines: M703, M704, M705. M705 is down Tuesday for its service.\n"
        "J2005: M703 1h, M704 2h\n"
        "J2006: M704 1h\n",
        ("M703", "M704", "M705"), "ok",
        {"J2005": (["M703", "M704"], [1, 2], None), "J2006": (["M704"], [1], None)},
    ),
    _case(
        "maintenance_window_on_a_routed_machine",
        "Machines M706, M707. M707 is out for maintenance until 11:00.\n"
        "J2007: M706 1h, M707 2h\n",
        ("M706", "M707"), FAILS,
    ),
    _case(
        "jobs_grouped_by_customer",
        "Machines: M708, M709\n"
        "Customer Larkfield Pumps:\n"
        "- J2008: M708 2h, M709 1h, ship 14:00\n"
        "- J2009: M709 1h\n"
        "Customer Ovenden Marine:\n"
        "- J2010: M708 3h\n",
        ("M708", "M709"), "ok",
        {"J2008": (["M708", "M709"], [2, 1], 14), "J2009": (["M709"], [1], None),
         "J2010": (["M708"], [3], None)},
    ),
    _case(
        "order_with_line_items_and_one_due",
        "Machines: M710, M711\n"
        "Order 5521 (Quillon Ltd), due 16:00\n"
        "  line 1: J2011 M710 2h > M711 1h\n"
        "  line 2: J2012 M711 2h\n",
        ("M710", "M711"), "ok",
        {"J2011": (["M710", "M711"], [2, 1], 16), "J2012": (["M711"], [2], 16)},
    ),
    _case(
        "op_columns_with_step_cells",
        "Machines: M712, M713, M714\n"
        "Job | Op1 | Op2 | Op3 | Due\n"
        "J2013 | M712 2h | M713 1h | M714 1h | 15:00\n"
        "J2014 | M713 2h | M714 1h | | \n",
        ("M712", "M713", "M714"), "ok",
        {"J2013": (["M712", "M713", "M714"], [2, 1, 1], 15),
         "J2014": (["M713", "M714"], [2, 1], None)},
    ),
    _case(
        "op_columns_then_hours_columns",
        "Machines: M712, M713\n"
        "Job\tOp1\tOp2\tHrs1\tHrs2\n"
        "J2015\tM712\tM713\t2\t1\n"
        "J2016\tM713\t\t3\t\n",
        ("M712", "M713"), "ok",
        {"J2015": (["M712", "M713"], [2, 1], None), "J2016": (["M713"], [3], None)},
    ),
    _case(
        "decimal_commas_and_a_dotted_clock",
        "Machines: M715, M716\n"
        "J2017: M715 1,5 h; M716 2,0 h; due 14.00\n",
        ("M715", "M716"), ROUNDED,
        {"J2017": (["M715", "M716"], [2, 2], 14)},
    ),
    _case(
        "clock_written_with_h",
        "Machines: M715, M716\n"
        "J2018: M715 2h, M716 1h, due 16h00\n",
        ("M715", "M716"), "ok",
        {"J2018": (["M715", "M716"], [2, 1], 16)},
    ),
    _case(
        "voice_no_punctuation_numbers_as_words",
        "machines are M717 and M718 job J2019 goes on M717 for two hours then M718 for one "
        "hour job J2020 is M718 three hours\n",
        ("M717", "M718"), "ok",
        {"J2019": (["M717", "M718"], [2, 1], None), "J2020": (["M718"], [3], None)},
    ),
    _case(
        "voice_half_past_is_a_half_hour_due",
        "machines M717 M718 J2021 needs M717 two hours and then M718 one hour it has to be "
        "ready by half past three\n",
        ("M717", "M718"), FAILS,
    ),
    _case(
        "voice_three_pm_due",
        "ok so we have M717 and M718 today J2022 runs M718 for four hours and it ships at "
        "three pm\n",
        ("M717", "M718"), "ok",
        {"J2022": (["M718"], [4], 15)},
    ),
    _case(
        "paragraph_per_job",
        "Machines: M719, M720.\n"
        "\n"
        "J2023 starts on M719, where it takes two hours, and afterwards it moves to M720 for "
        "one hour. It must be finished by 13:00.\n"
        "\n"
        "J2024 only needs M720. Plan three hours for it.\n",
        ("M719", "M720"), "ok",
        {"J2023": (["M719", "M720"], [2, 1], 13), "J2024": (["M720"], [3], None)},
    ),
    _case(
        "ids_with_letters_after_digits",
        "Machines: M721, M722\n"
        "J10A: M721 2h, M722 1h\n"
        "J10B: M722 2h\n",
        ("M721", "M722"), "ok",
        {"J10A": (["M721", "M722"], [2, 1], None), "J10B": (["M722"], [2], None)},
    ),
    _case(
        "maintenance_note_for_another_day",
        "Machines: M723, M724\n"
        "Heads-up: M724 goes down for calibration on Thursday, not today.\n"
        "J2025: M723 2h, M724 1h, due 12:00\n",
        ("M723", "M724"), "ok",
        {"J2025": (["M723", "M724"], [2, 1], 12)},
    ),
    _case(
        "customer_column_csv",
        "Customer,Job,Route,Hours,Due\n"
        "Halvard,J2026,M725>M726,2>1,15:00\n"
        "Ostrel,J2027,M726,2,\n",
        ("M725", "M726"), "ok",
        {"J2026": (["M725", "M726"], [2, 1], 15), "J2027": (["M726"], [2], None)},
    ),
    _case(
        "order_lines_numbered_with_letter_ids",
        "Machines: M727 (press), M728 (deburr)\n"
        "Order 8814:\n"
        "  10 - J31A press 1h, deburr 1h\n"
        "  20 - J31B press 2h\n",
        ("M727", "M728"), "ok",
        {"J31A": (["M727", "M728"], [1, 1], None), "J31B": (["M727"], [2], None)},
    ),
    _case(
        "manager_plan_with_priorities",
        "Thursday plan (M. Ross)\n"
        "Machines on: M729, M730\n"
        "Priority 1 - J2028: M729 2h then M730 2h, out by 17:00\n"
        "Priority 2 - J2029: M730 1h\n",
        ("M729", "M730"), "ok",
        {"J2028": (["M729", "M730"], [2, 2], 17), "J2029": (["M730"], [1], None)},
    ),
    _case(
        "voice_minutes_as_words",
        "machines M731 and M732 job J2030 M731 ninety minutes then M732 thirty minutes\n",
        ("M731", "M732"), ROUNDED,
        {"J2030": (["M731", "M732"], [2, 1], None)},
    ),
]

EIGHTH_CASES: list[LabelledCase] = [
    _case(
        "manager_week_note_today_only",
        "Plan for today (Tuesday), from the plant manager\n"
        "Running: M741 grinder, M742 washer\n"
        "1. J2041 - M741 3h, M742 1h - customer wants it by 16:00\n"
        "2. J2042 - M742 2h\n",
        ("M741", "M742"), "ok",
        {"J2041": (["M741", "M742"], [3, 1], 16), "J2042": (["M742"], [2], None)},
    ),
    _case(
        "weekday_headings_over_job_lists",
        "Machines: M743, M744\n"
        "Wednesday:\n"
        "- J2043 M743 2h\n"
        "Thursday:\n"
        "- J2044 M744 1h\n",
        ("M743", "M744"), FAILS,
    ),
    _case(
        "machine_down_all_day_and_a_job_on_it",
        "Machines: M745, M746\n"
        "M746 is down today (bearing swap).\n"
        "J2045: M745 1h, M746 1h\n",
        ("M745", "M746"), FAILS,
    ),
    _case(
        "machine_back_from_service_note",
        "Machines: M745, M746\n"
        "M746 is back from service and running normally.\n"
        "J2046: M745 2h, M746 2h, due 13:00\n",
        ("M745", "M746"), "ok",
        {"J2046": (["M745", "M746"], [2, 2], 13)},
    ),
    _case(
        "customer_heading_with_dash_items",
        "Machines: M747 (cutter), M748 (folder)\n"
        "\n"
        "FOR HARWICK PRINT\n"
        "- J2047 cutter 1h, folder 2h (ship 15:00)\n"
        "FOR BELMONT CARDS\n"
        "- J2048 folder 1h\n",
        ("M747", "M748"), "ok",
        {"J2047": (["M747", "M748"], [1, 2], 15), "J2048": (["M748"], [1], None)},
    ),
    _case(
        "order_lines_as_a_pipe_table",
        "Machines: M749, M750\n"
        "| Order | Line | Job | Route | Hrs |\n"
        "|---|---|---|---|---|\n"
        "| 7701 | 1 | J2049 | M749 > M750 | 1 > 1 |\n"
        "| 7701 | 2 | J2050 | M750 | 2 |\n",
        ("M749", "M750"), "ok",
        {"J2049": (["M749", "M750"], [1, 1], None), "J2050": (["M750"], [2], None)},
    ),
    _case(
        "op_columns_csv_with_due",
        "Job;Op 1;Op 2;Op 3;Due\n"
        "J2051;M751 1h;M752 2h;M753 1h;14:00\n"
        "J2052;M753 2h;;;\n",
        ("M751", "M752", "M753"), "ok",
        {"J2051": (["M751", "M752", "M753"], [1, 2, 1], 14), "J2052": (["M753"], [2], None)},
    ),
    _case(
        "op_columns_gap_in_the_middle",
        "Job | Op1 | Op2 | Op3\n"
        "J2053 | M751 1h | | M753 1h\n",
        ("M751", "M753"), FAILS,
    ),
    _case(
        "decimal_comma_minutes_and_clock",
        "Machines: M754, M755\n"
        "J2054: M754 90 min; M755 1,25 h; fertig by 11.00\n",
        ("M754", "M755"), FAILS,
    ),
    _case(
        "twenty_four_hour_clock_without_colon",
        "Machines: M754, M755\n"
        "J2055: M754 2h, M755 1h, due 1500\n",
        ("M754", "M755"), "ok",  # label corrected: 'due 1500' is 15:00, as a planner reads it
        {"J2055": (["M754", "M755"], [2, 1], 15)},
    ),
    _case(
        "clock_with_h_and_minutes_zero",
        "Machines: M754, M755\n"
        "J2056 runs M755 for 2,5 h and must leave by 17h\n",
        ("M754", "M755"), ROUNDED,
        {"J2056": (["M755"], [3], 17)},
    ),
    _case(
        "voice_then_after_that",
        "right so machines M756 and M757 job J2057 first M756 three hours after that M757 "
        "two hours needs to ship by four pm job J2058 M757 one hour\n",
        ("M756", "M757"), "ok",
        {"J2057": (["M756", "M757"], [3, 2], 16), "J2058": (["M757"], [1], None)},
    ),
    _case(
        "voice_an_hour_and_a_half",
        "we have M756 and M757 today J2059 M756 an hour and a half then M757 an hour\n",
        ("M756", "M757"), ROUNDED,
        {"J2059": (["M756", "M757"], [2, 1], None)},
    ),
    _case(
        "voice_oclock_without_am_pm",
        "machines M756 M757 job J2060 M756 two hours it is due at four o'clock\n",
        ("M756", "M757"), FAILS,
    ),
    _case(
        "paragraph_per_job_with_pronouns",
        "Machines: M758 (kiln), M759 (glaze line).\n"
        "\n"
        "J2061 goes into the kiln first for three hours. Then it goes through the glaze "
        "line, which takes one hour. It has to be packed by 15:00.\n"
        "\n"
        "J2062 is glazed only: one hour on the glaze line.\n",
        ("M758", "M759"), "ok",
        {"J2061": (["M758", "M759"], [3, 1], 15), "J2062": (["M759"], [1], None)},
    ),
    _case(
        "letter_ids_in_a_table",
        "Job,Route,Hours\n"
        "J12A,M760>M761,1>2\n"
        "J12B,M761,3\n",
        ("M760", "M761"), "ok",
        {"J12A": (["M760", "M761"], [1, 2], None), "J12B": (["M761"], [3], None)},
    ),
    _case(
        "letter_ids_share_a_route",
        "Machines: M762, M763\n"
        "J14A and J14B: M762 1h, then M763 2h\n",
        ("M762", "M763"), "ok",
        {"J14A": (["M762", "M763"], [1, 2], None), "J14B": (["M762", "M763"], [1, 2], None)},
    ),
    _case(
        "order_header_line_then_jobs",
        "Machines: M764, M765\n"
        "Order 3390 - two jobs:\n"
        "J2063: M764 2h, M765 1h\n"
        "J2064: M765 2h\n",
        ("M764", "M765"), "ok",
        {"J2063": (["M764", "M765"], [2, 1], None), "J2064": (["M765"], [2], None)},
    ),
    _case(
        "maintenance_slot_as_a_pseudo_job",
        "Machines: M766, M767\n"
        "J2065: M766 2h, M767 1h\n"
        "PM on M767 10:00-12:00\n",
        ("M766", "M767"), FAILS,
    ),
    _case(
        "line_items_with_quantities",
        "Machines: M768, M769\n"
        "Sales order 4410\n"
        "  Item 1: J2066, 40 pcs, M768 2h > M769 1h\n"
        "  Item 2: J2067, 10 pcs, M769 1h\n",
        # label aligned with the first set's convention ('pieces_without_a_cycle_time'): a
        # quantity beside a plain duration may mean the time per piece or for the whole lot
        ("M768", "M769"), FAILS,
    ),
]

NINTH_CASES: list[LabelledCase] = [
    _case(
        "manager_plan_with_shift_lead_lines",
        "WEEKLY PLAN - WK 12 - this sheet covers Friday only\n"
        "Equipment: M771 (brake), M772 (welder), M773 (paint booth)\n"
        "J2071  M771 1h, M772 2h, M773 1h   ship 16:00\n"
        "J2072  M772 1h, M773 1h\n",
        ("M771", "M772", "M773"), "ok",
        {"J2071": (["M771", "M772", "M773"], [1, 2, 1], 16),
         "J2072": (["M772", "M773"], [1, 1], None)},
    ),
    _case(
        "weekly_grid_days_as_columns",
        "Job | Mon | Tue | Wed\n"
        "J2073 | M774 2h | M775 1h | \n"
        "J2074 | | M774 1h | M775 1h\n",
        ("M774", "M775"), FAILS,
    ),
    _case(
        "down_for_the_morning_note",
        "Machines: M776, M777\n"
        "FYI M777 is down this morning (belt change).\n"
        "J2075: M776 1h, M777 2h\n",
        ("M776", "M777"), FAILS,
    ),
    _case(
        "spare_machine_idle_today",
        "Machines: M776, M777, M778\n"
        "M778 is not in use today.\n"
        "J2076: M776 2h, M777 1h, due 12:00\n",
        ("M776", "M777", "M778"), "ok",
        {"J2076": (["M776", "M777"], [2, 1], 12)},
    ),
    _case(
        "customer_in_parentheses_after_job",
        "Machines: M779, M780\n"
        "J2077 (for Farrow Optics): M779 2h, M780 1h, due 14:00\n"
        "J2078 (for Tenby Glass): M780 3h\n",
        ("M779", "M780"), "ok",
        {"J2077": (["M779", "M780"], [2, 1], 14), "J2078": (["M780"], [3], None)},
    ),
    _case(
        "customer_table_tabs",
        "Client\tJob\tRoute\tHours\n"
        "Pellow\tJ2079\tM779 > M780\t1 > 1\n"
        "Ardent\tJ2080\tM779\t2\n",
        ("M779", "M780"), "ok",
        {"J2079": (["M779", "M780"], [1, 1], None), "J2080": (["M779"], [2], None)},
    ),
    _case(
        "order_line_items_in_a_paragraph",
        "Machines: M781, M782.\n"
        "PO 6620 has two lines. J2081 runs on M781 for 2h and then on M782 for 1h. J2082 "
        "runs on M782 for 2h.\n",
        ("M781", "M782"), "ok",
        {"J2081": (["M781", "M782"], [2, 1], None), "J2082": (["M782"], [2], None)},
    ),
    _case(
        "op_columns_with_machine_names",
        "Machines: M783 = bandsaw, M784 = drill press\n"
        "Job | Op1 | Op2\n"
        "J2083 | bandsaw 1h | drill press 2h\n"
        "J2084 | drill press 1h | \n",
        ("M783", "M784"), "ok",
        {"J2083": (["M783", "M784"], [1, 2], None), "J2084": (["M784"], [1], None)},
    ),
    _case(
        "step_columns_with_minutes_numbered",
        "Machines: M785, M786\n"
        "Job\tStep 1\tMin 1\tStep 2\tMin 2\n"
        "J2085\tM785\t90\tM786\t30\n",
        ("M785", "M786"), ROUNDED,
        {"J2085": (["M785", "M786"], [2, 1], None)},
    ),
    _case(
        "decimal_comma_hours_column",
        "Job;Machine;Hours\n"
        "J2086;M787;1,5\n"
        "J2086;M788;2\n",
        ("M787", "M788"), ROUNDED,
        {"J2086": (["M787", "M788"], [2, 2], None)},
    ),
    _case(
        "clock_with_dot_and_uhr_free_24h",
        "Machines: M787, M788\n"
        "J2087: M788 3 h, ready 18.00\n",
        ("M787", "M788"), "ok",
        {"J2087": (["M788"], [3], 18)},
    ),
    _case(
        "voice_numbers_for_machines_spoken",
        "machines M789 and M790 job J2088 goes to M789 for three hours and then M790 for "
        "two hours job J2089 goes to M790 for one hour and ships at noon\n",
        ("M789", "M790"), "ok",
        {"J2088": (["M789", "M790"], [3, 2], None), "J2089": (["M790"], [1], 12)},
    ),
    _case(
        "voice_um_fillers",
        "um so J2090 uh M789 two hours then M790 um one hour and J2091 M790 two hours we "
        "have M789 M790\n",
        ("M789", "M790"), "ok",
        {"J2090": (["M789", "M790"], [2, 1], None), "J2091": (["M790"], [2], None)},
    ),
    _case(
        "voice_due_five_thirty_in_words",
        "machines M789 and M790 job J2092 M789 two hours due at five thirty pm\n",
        ("M789", "M790"), FAILS,
    ),
    _case(
        "paragraph_per_job_machine_first",
        "Machines: M791, M792.\n"
        "\n"
        "For J2093 we need M791 for one hour, followed by M792 for two hours. The truck "
        "collects it at 15:00.\n"
        "\n"
        "For J2094 only M792 is needed, two hours.\n",
        ("M791", "M792"), "ok",
        {"J2093": (["M791", "M792"], [1, 2], 15), "J2094": (["M792"], [2], None)},
    ),
    _case(
        "letter_ids_lower_case_suffix",
        "Machines: M793, M794\n"
        "J20a: M793 1h, M794 1h\n"
        "J20b: M794 3h, due 10:00\n",
        ("M793", "M794"), "ok",
        {"J20a": (["M793", "M794"], [1, 1], None), "J20b": (["M794"], [3], 10)},
    ),
    _case(
        "letter_ids_as_variants_of_one_job",
        "Machines: M795, M796\n"
        "J21 comes in two variants, J21A and J21B.\n"
        "J21A: M795 1h\n"
        "J21B: M796 1h\n",
        ("M795", "M796"), FAILS,
    ),
    _case(
        "maintenance_between_jobs_no_time",
        "Machines: M797, M798\n"
        "J2095: M797 2h, M798 1h\n"
        "J2096: M798 2h\n"
        "Clean M798 after J2095 (15 min).\n",
        ("M797", "M798"), FAILS,
    ),
    _case(
        "order_with_lines_and_separate_due_lines",
        "Machines: M799, M800\n"
        "Order 9902\n"
        "- J2097: M799 1h, M800 1h\n"
        "- J2098: M800 2h\n"
        "Due: J2097 11:00, J2098 17:00\n",
        ("M799", "M800"), "ok",
        {"J2097": (["M799", "M800"], [1, 1], 11), "J2098": (["M800"], [2], 17)},
    ),
    _case(
        "manager_plan_with_headcount_noise",
        "Plan - 2 operators on days, 1 on nights\n"
        "Machines: M801, M802\n"
        "J2099: M801 2h -> M802 2h\n"
        "J2100: M802 1h\n",
        ("M801", "M802"), "ok",
        {"J2099": (["M801", "M802"], [2, 2], None), "J2100": (["M802"], [1], None)},
    ),
]

#: A short check batch written after the changes for batches 7-9, to measure them on wording
#: they were not fitted to.
CHECK_CASES: list[LabelledCase] = [
    _case(
        "check_customer_bullets_with_wants",
        "Machines: M811 (router), M812 (edge bander)\n"
        "Customer Pinecrest Kitchens:\n"
        "* J2111 router 2h, edge bander 1h - they want it by 13:00\n"
        "* J2112 edge bander 2h\n",
        ("M811", "M812"), "ok",
        {"J2111": (["M811", "M812"], [2, 1], 13), "J2112": (["M812"], [2], None)},
    ),
    _case(
        "check_op_columns_with_minutes_numbered",
        "Job,Op1,Min1,Op2,Min2,Due\n"
        "J2113,M813,45,M814,120,16:00\n"
        "J2114,M814,60,,,\n",
        ("M813", "M814"), ROUNDED,
        {"J2113": (["M813", "M814"], [1, 2], 16), "J2114": (["M814"], [1], None)},
    ),
    _case(
        "check_voice_with_job_word_and_pm",
        "okay machines M815 and M816 job J2115 M815 one hour then M816 thirty minutes due "
        "by two pm job J2116 M815 four hours\n",
        ("M815", "M816"), ROUNDED,
        {"J2115": (["M815", "M816"], [1, 1], 14), "J2116": (["M815"], [4], None)},
    ),
    _case(
        "check_days_listed_for_a_week",
        "Machines: M817, M818\n"
        "Monday - J2117: M817 2h\n"
        "Wednesday - J2118: M818 2h\n",
        ("M817", "M818"), FAILS,
    ),
    _case(
        "check_po_heading_over_bullets",
        "Machines: M819, M820\n"
        "PO #4471 (Greyhaven Boats):\n"
        "- J2119: M819 3h, M820 1h\n"
        "- J2120: M820 1h\n",
        ("M819", "M820"), "ok",
        {"J2119": (["M819", "M820"], [3, 1], None), "J2120": (["M820"], [1], None)},
    ),
    _case(
        "check_letter_ids_in_paragraphs",
        "Machines: M821, M822.\n"
        "\n"
        "J30A starts on M821 for two hours and finishes on M822 for one hour.\n"
        "\n"
        "J30B only needs M822. Allow one hour for it.\n",
        ("M821", "M822"), "ok",
        {"J30A": (["M821", "M822"], [2, 1], None), "J30B": (["M822"], [1], None)},
    ),
    _case(
        "check_machine_down_until_noon",
        "Machines: M823, M824\n"
        "M824 is unavailable until 12:00.\n"
        "J2121: M823 1h, M824 1h\n",
        ("M823", "M824"), FAILS,
    ),
    _case(
        "check_decimal_comma_table_semicolons",
        "Job;Route;Hours;Due\n"
        "J2122;M825 > M826;0,5 > 2;11.00\n",
        ("M825", "M826"), ROUNDED,
        {"J2122": (["M825", "M826"], [1, 2], 11)},
    ),
    _case(
        "check_due_line_for_two_jobs",
        "Machines: M827, M828\n"
        "J2123: M827 2h\n"
        "J2124: M828 1h, M827 1h\n"
        "Deadlines: J2123 10:00; J2124 15:00\n",
        ("M827", "M828"), "ok",
        {"J2123": (["M827"], [2], 10), "J2124": (["M828", "M827"], [1, 1], 15)},
    ),
    _case(
        "check_for_job_we_need_passive_due",
        "Machines: M829, M830.\n"
        "For J2125 we need M830 for three hours. It must be shipped by 17:00.\n",
        ("M829", "M830"), "ok",
        {"J2125": (["M830"], [3], 17)},
    ),
]

BATCHES: tuple[tuple[str, list[LabelledCase]], ...] = (
    ("seventh batch", SEVENTH_CASES),
    ("eighth batch", EIGHTH_CASES),
    ("ninth batch", NINTH_CASES),
    ("check batch", CHECK_CASES),
)

ALL_CASES = [case for _, cases in BATCHES for case in cases]

#: Cases the reader still misses: each must fail with a code, never be read wrongly.
KNOWN_MISSES = frozenset({
    "paragraph_per_job_with_pronouns",
    "paragraph_per_job_machine_first",
})


@pytest.mark.parametrize("case", ALL_CASES, ids=[case.name for case in ALL_CASES])
def test_a_staff_phrasing_is_read_as_a_planner_reads_it(case: LabelledCase) -> None:
    check_case(case, KNOWN_MISSES)


def test_rounded_cases_record_the_rounding() -> None:
    check_rounding(ALL_CASES, KNOWN_MISSES)


def test_the_batches_have_distinct_names() -> None:
    assert len({case.name for case in ALL_CASES}) == len(ALL_CASES)


def test_day_labels_of_two_days_are_reported_and_a_day_range_is_no_label() -> None:
    quotes = [u.quote for u in days_apart("Monday:\n- J1 M1 2h\nTuesday:\n- J2 M1 1h\n")]
    assert quotes == ["Tuesday:"]
    assert days_apart("Mon-Fri 07:00-15:00\nSat: closed\nJ1: M1 2h\n") == []
    assert days_apart("Sent: Monday 06:58\nJ1: M1 2h, due Tuesday 10:00\n") == []


def test_a_numbered_hours_column_needs_its_step_cell() -> None:
    detail = fails("Machines: M1, M2\nJob\tOp1\tOp2\tHrs1\tHrs2\nJ1\tM1\t\t2\t1\n")
    assert "a duration for the empty step" in detail
    detail = fails("Machines: M1, M2\nJob\tOp1\tHrs1\nJ1\tM1 2h\t3\n")
    assert "durations in both" in detail
    fails("Machines: M1\nJob\tMachine\tHrs1\nJ1\tM1\t2\n")  # no step cells: not read


def test_transcript_breaks_only_in_lines_without_punctuation() -> None:
    config = OnboardingAgent().run_detailed(
        "today we run M41 plus M42 job J1 M41 forty-five minutes then M42 two hours job J2 "
        "M42 one hour"
    ).config
    assert [(j.id, [s.duration_hours for s in j.steps]) for j in config.jobs] == [
        ("J1", [1, 2]), ("J2", [1])]
    # with punctuation the text is read as written: two jobs in one clause stay unread
    fails("Machines: M1, M2. J1 M1 2h then M2 1h job J2 M2 1h, due three pm.")


def test_a_due_line_for_several_jobs_needs_a_time_in_every_part() -> None:
    assert "could not read 'Due: J1 11:00, J2 5pm tomorrow'" in fails(
        "Machines: M1\nJ1: M1 1h\nJ2: M1 2h\nDue: J1 11:00, J2 5pm tomorrow\n")


def test_a_step_cell_names_a_machine_only_by_its_whole_name() -> None:
    assert "'drill 1h' is not a route" in fails(
        "Machines: M1 = drill press, M2 = saw\nJob | Op1 | Op2\nJ1 | drill 1h | saw 2h\n")


def test_for_a_job_we_need_reads_a_route_and_nothing_else() -> None:
    config = OnboardingAgent().run_detailed(
        "Machines: M1, M2.\nFor J1 we need M1 for one hour, followed by M2 for two hours. "
        "The truck collects it at 15:00.\n").config
    assert [(j.id, [s.machine_id for s in j.steps], j.due_time_hour) for j in config.jobs] == [
        ("J1", ["M1", "M2"], 15)]
    assert "cannot read" in fails("Machines: M1, M2.\nFor J1 we need the M1 manual.\n")


def test_loaded_or_packed_is_a_due_only_with_by_or_before() -> None:
    assert "cannot read 'loaded at 9:00'" in fails(
        "Machines: M1, M2\nJ1: M1 2h, M2 1h, loaded at 9:00\n")
    config = OnboardingAgent().run_detailed(
        "Machines: M1, M2\nJ1: M1 2h, M2 1h, packed by 15:00\n").config
    assert config.jobs[0].due_time_hour == 15


def test_plan_hours_for_it_is_the_time_of_a_one_step_job_only() -> None:
    assert "a duration without 'there'" in fails(
        "Machines: M1, M2.\nJ1 needs M1 and M2. Plan two hours for it.\n")


def test_a_decimal_comma_between_arrows_is_one_duration() -> None:
    config = OnboardingAgent().run_detailed(
        "Job;Route;Hours\nJ1;M1 > M2 > M3;1,5 > 2 > 1\n").config  # not 1, 5, 2, 1
    assert [s.duration_hours for s in config.jobs[0].steps] == [2, 2, 1]
    fails("Job;Route;Hours\nJ1;M1 > M2 > M3;0,5 > 2,25\n")  # never 0.5, 2, 25


def test_an_order_due_reaches_only_its_items_and_never_overrides_one() -> None:
    assert "could not read 'Order 55 (Acme), due 16:00'" in fails(
        "Machines: M1, M2\nOrder 55 (Acme), due 16:00\n  - J1 M1 2h\n  - J2 M2 1h, due 12:00\n")
    config = OnboardingAgent().run_detailed(
        "Machines: M1, M2\nPO 7, due 3pm:\n- J1: M1 2h\n- J2: M2 1h\nJ3: M1 1h\n").config
    assert [j.due_time_hour for j in config.jobs] == [15, 15, None]


def test_per_job_in_parentheses_only_on_a_one_machine_route() -> None:
    assert "cannot read '(1h each job)'" in fails(
        "Machines: M1, M2.\nJ1 and J2 on M1 then M2 (1h each job)\n")


def test_downtime_not_today_only_when_nothing_else_names_today() -> None:
    for note in ("M2 is down today, not tomorrow.", "M2 is down until tomorrow.",
                 "M2 is down tomorrow."):  # a plan for tomorrow has M2 down on its day
        assert "out of service" in fails(f"Machines: M1, M2\n{note}\nJ1: M1 1h, M2 1h\n")
    config = OnboardingAgent().run_detailed(
        "Machines: M1, M2\nM2 goes down on Friday, not today.\nJ1: M1 1h, M2 1h\n").config
    assert [s.machine_id for s in config.jobs[0].steps] == ["M1", "M2"]


def main() -> None:
    """Print per batch the totals (correct / safe fail / silent wrong) and the cases not
    correct."""
    print_totals(BATCHES)


if __name__ == "__main__":
    main()
